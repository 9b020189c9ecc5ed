"""Sphinx configuration of okl's documentation (``sphinx-build -W -b html docs OUT``).

Sphinx rather than MkDocs: the API reference comes from the docstrings through autodoc and
the CLI reference from click through sphinx-click, both first-class in Sphinx, and a small
Sphinx extension (_ext/okldocs.py) can call okl's translator while the pages are built.
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # document the okl of this checkout
sys.path.insert(0, os.path.join(HERE, "_ext"))

from okl import __version__  # noqa: E402

project = "okl"
author = "the okl developers"
copyright = "the okl developers"
release = version = __version__

extensions = ["sphinx.ext.autodoc", "sphinx_click", "okldocs"]
exclude_patterns = ["_build"]
highlight_language = "none"  # `::` blocks are plain text; examples name their language
pygments_style = "sphinx"

autodoc_member_order = "bysource"
autoclass_content = "both"  # the class docstring, then __init__'s
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "undoc-members": True}

html_theme = "alabaster"
html_static_path = ["_static"]
html_css_files = ["okl.css"]
html_title = f"okl {release}"
html_theme_options = {"description": "OKL kernels from Python on serial C, OpenMP, OpenCL, "
                                     "CUDA and HIP", "fixed_sidebar": True,
                      "page_width": "1100px", "sidebar_width": "230px"}
