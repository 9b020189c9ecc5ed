"""AST passes, one per module: tile, dim (run by the front end), then the backend lowering."""
