"""benchParanumal's bake-off problems on hexahedra: which kernel each builds, with which
defines and arguments, and how much work it counts (its FLOP and byte formulas).

BK1-BK6 time one operator; BP1-BP6 solve with CG around the same operator.  The
operator of problem k is ``okl/bp{k}AxHex3D.okl:bp{k}AxHex3D`` (mass, stiffness + lambda
mass at Gauss points, stiffness + lambda mass at GLL nodes; odd: one field, even: three);
the right-hand side is ``okl/rhsHex3D.okl:rhsHex3D``.
"""

from __future__ import annotations

from dataclasses import dataclass

#: the defines benchParanumal's platform gives every kernel in each OCCA mode (OpenMP: none)
MODE_DEFINES = {"serial": {"OCCA_USE_SERIAL": 1}, "openmp": {},
                "opencl": {"OCCA_USE_OPENCL": 1}, "cuda": {"OCCA_USE_CUDA": 1},
                "hip": {"OCCA_USE_HIP": 1}}

BASE_DEFINES = {"dfloat": "double", "dfloat2": "double2", "dfloat4": "double4",
                "dfloat8": "double8", "dlong": "int"}


@dataclass(frozen=True)
class Problem:
    number: int  # 1..6
    solve: bool  # BP: CG; BK: the operator only

    @property
    def name(self) -> str:
        return f"{'BP' if self.solve else 'BK'}{self.number}"

    @property
    def nfields(self) -> int:
        return 3 if self.number % 2 == 0 else 1

    @property
    def cubature(self) -> bool:
        """BK/BP 1-4 work at Gauss points (and define p_cub*), 5-6 at GLL nodes."""
        return self.number <= 4

    @property
    def lam(self) -> float:
        """lambda: 0 for the mass problems (1, 2), 1 for the others, as benchParanumal."""
        return 0.0 if self.number <= 2 else 1.0

    @property
    def operator(self) -> tuple[str, str]:
        return f"okl/bp{self.number}AxHex3D.okl", f"bp{self.number}AxHex3D"

    def defines(self, degree: int, mode: str) -> dict:
        """mesh.props plus p_Nfields, as benchParanumal's setup builds the operator and the
        right-hand side."""
        N = degree
        Nq = N + 1
        out: dict = dict(BASE_DEFINES)
        out.update(MODE_DEFINES[mode])
        out.update({"p_dim": 3, "p_N": N, "p_Nq": Nq, "p_Np": Nq ** 3, "p_Nfp": Nq * Nq,
                    "p_Nfaces": 6, "p_NfacesNfp": 6 * Nq * Nq, "p_Nggeo": 6, "p_G00ID": 0,
                    "p_G01ID": 1, "p_G02ID": 2, "p_G11ID": 3, "p_G12ID": 4, "p_G22ID": 5})
        if self.cubature:
            cubNq = N + 2
            out.update({"p_cubN": N + 1, "p_cubNq": cubNq, "p_cubNp": cubNq ** 3,
                        "p_cubNfp": cubNq * cubNq})
        out["p_Nfields"] = self.nfields
        return out

    # -- what the timing line counts (bk*Run.cpp, bp*Run.cpp) -------------------------------
    def operator_bytes(self, degree: int, ndofs: int, nelements: int) -> int:
        Nq = degree + 1
        Np, cubNp = Nq ** 3, (degree + 2) ** 3
        d, dl, nf = 8, 4, self.nfields
        per_element = {1: cubNp * d, 2: cubNp * d, 3: cubNp * 7 * d, 4: cubNp * 7 * d,
                       5: Np * 7 * d, 6: Np * 7 * d}[self.number]
        return ndofs * d + (per_element + dl + Np * nf * dl + Np * nf * d) * nelements

    def operator_flops(self, degree: int, nelements: int) -> int:
        Nq, cubNq, nf = degree + 1, degree + 2, self.nfields
        if self.number <= 2:
            per = 4 * cubNq * Nq ** 3 + 4 * cubNq ** 2 * Nq ** 2 + 4 * cubNq ** 3 * Nq + \
                cubNq ** 3
        elif self.number <= 4:
            per = 4 * cubNq * Nq ** 3 + 4 * cubNq ** 2 * Nq ** 2 + 4 * cubNq ** 3 * Nq + \
                12 * cubNq ** 4 + 17 * cubNq ** 3
        else:
            per = 12 * Nq ** 4 + 18 * Nq ** 3
        return per * nf * nelements

    def solve_bytes(self, degree: int, ndofs: int, nelements: int, iterations: int) -> int:
        Np = (degree + 1) ** 3
        nglobal = Np * nelements * self.nfields
        d, dl = 8, 4
        ax = self.operator_bytes(degree, ndofs, nelements)
        gather = (ndofs + 1) * dl + nglobal * dl + nglobal * d + ndofs * d
        return (4 * ndofs * d + ax + gather) + (11 * ndofs * d + ax + gather) * iterations

    def solve_flops(self, degree: int, ndofs: int, nelements: int, iterations: int) -> int:
        Np = (degree + 1) ** 3
        nglobal = Np * nelements * self.nfields
        ax = self.operator_flops(degree, nelements)
        return (5 * ndofs + ax + nglobal) + (11 * ndofs + ax + nglobal) * iterations


def parse(name: str) -> Problem:
    key = name.strip().upper()
    if len(key) != 3 or key[:2] not in ("BK", "BP") or key[2] not in "123456":
        raise ValueError(f"unknown problem '{name}': choose BK1-BK6 or BP1-BP6")
    return Problem(int(key[2]), key[:2] == "BP")
