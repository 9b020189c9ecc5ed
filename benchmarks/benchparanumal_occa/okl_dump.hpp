// okl's parity check, compiled into benchParanumal's Run() by dump.py: with OKL_DUMP=DIR set,
// write the arrays benchParanumal computed to DIR/<name>.bin (raw, native byte order), so that
// okl can compare its own outputs with them and run its kernels on OCCA's inputs.  Without
// OKL_DUMP nothing happens.  (okl's code, not benchParanumal's; included after the problem's
// header, so its names resolve as in the Run file.)
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

template <typename T>
static void okl_dump_host(const char *name, const T *data, size_t count) {
  const char *dir = std::getenv("OKL_DUMP");
  if (!dir || count == 0) return;
  std::string path = std::string(dir) + "/" + name + ".bin";
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f) { std::perror(path.c_str()); return; }
  std::fwrite(data, sizeof(T), count, f);
  std::fclose(f);
}

template <typename T>
static void okl_dump_device(const char *name, deviceMemory<T> &o) {
  if (!std::getenv("OKL_DUMP") || o.length() == 0) return;
  memory<T> h;
  h.malloc(o.length());
  o.copyTo(h);
  okl_dump_host(name, h.ptr(), h.length());
}

// With OKL_DUMP_SETUP set too: the mesh arrays okl's driver computes itself, and the
// problem's masked numbering.
template <typename Mesh, typename G2L>
static void okl_dump_setup(Mesh &mesh, G2L &GlobalToLocal) {
  if (!std::getenv("OKL_DUMP_SETUP")) return;
  okl_dump_host("x", mesh.x.ptr(), mesh.x.length());
  okl_dump_host("y", mesh.y.ptr(), mesh.y.length());
  okl_dump_host("z", mesh.z.ptr(), mesh.z.length());
  okl_dump_host("wJ", mesh.wJ.ptr(), mesh.wJ.length());
  okl_dump_host("ggeo", mesh.ggeo.ptr(), mesh.ggeo.length());
  okl_dump_host("gllw", mesh.gllw.ptr(), mesh.gllw.length());
  okl_dump_host("D", mesh.D.ptr(), mesh.D.length());
  okl_dump_host("MM", mesh.MM.ptr(), mesh.MM.length());
  okl_dump_host("cubwJ", mesh.cubwJ.ptr(), mesh.cubwJ.length());
  okl_dump_host("cubggeo", mesh.cubggeo.ptr(), mesh.cubggeo.length());
  okl_dump_host("cubInterp", mesh.cubInterp.ptr(), mesh.cubInterp.length());
  okl_dump_host("cubD", mesh.cubD.ptr(), mesh.cubD.length());
  okl_dump_host("GlobalToLocal", GlobalToLocal.ptr(), GlobalToLocal.length());
}
