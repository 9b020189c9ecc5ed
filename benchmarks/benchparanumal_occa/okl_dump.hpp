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

template <typename M>
static void okl_dump_array(const char *name, M &m) {
  okl_dump_host(name, m.ptr(), m.length());
}

template <typename T>
static void okl_dump_device(const char *name, deviceMemory<T> &o) {
  if (!std::getenv("OKL_DUMP") || o.length() == 0) return;
  memory<T> h;
  h.malloc(o.length());
  o.copyTo(h);
  okl_dump_array(name, h);
}

// With OKL_DUMP_SETUP set too: the mesh arrays okl's driver computes itself, and the
// problem's masked numbering.
template <typename Mesh, typename G2L>
static void okl_dump_setup(Mesh &mesh, G2L &GlobalToLocal) {
  if (!std::getenv("OKL_DUMP_SETUP")) return;
  okl_dump_array("x", mesh.x);
  okl_dump_array("y", mesh.y);
  okl_dump_array("z", mesh.z);
  okl_dump_array("wJ", mesh.wJ);
  okl_dump_array("ggeo", mesh.ggeo);
  okl_dump_array("gllw", mesh.gllw);
  okl_dump_array("D", mesh.D);
  okl_dump_array("MM", mesh.MM);
  okl_dump_array("cubwJ", mesh.cubwJ);
  okl_dump_array("cubggeo", mesh.cubggeo);
  okl_dump_array("cubInterp", mesh.cubInterp);
  okl_dump_array("cubD", mesh.cubD);
  okl_dump_array("GlobalToLocal", GlobalToLocal);
}
