//===- mxq-gpu-launch.cpp - run an ahead-of-time compiled mxq function ----===//
//
//   mxq-gpu-launch LIB.so --input A.npy [--input B.npy ...] --output-dir DIR
//                  [--repeat N [--copy-baseline]]
//
// Runs a function that `mxq-run --target=nvvm --chip C --emit-library LIB.so`
// compiled ahead of time, on the first NVIDIA GPU, with mxq-run's .npy
// conventions (f32 <f4, f16 <f2, bf16 <u2, 8-bit codes and E8M0 |u1, FP4
// |u1 two per byte along the last axis, element 0 in the low nibble). It
// needs only the NVIDIA driver: no LLVM, no MLIR (plain C++; the library
// calls the mgpu* functions this program exports). With --repeat it also
// prints the kernel time per call (CUDA events) and the wall time, and with
// --copy-baseline the time of a device-to-device copy of the first input's
// bytes, measured in the same run.
//
//===----------------------------------------------------------------------===//
#include "mxq/Reference/Reference.h"
#include "mxq/Target/NVVM/CUDADriver.h"
#include "mxq/Target/NVVM/GPURuntime.h"
#include "mxq/Target/NVVM/LibrarySignature.h"
#include "mxq/Runtime/MemRefDescriptor.h"
#include "mxq/Support/ElementTypes.h"
#include "mxq/Support/Npy.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <utility>

namespace {

using Tensor = mxq::nvvm::LibrarySignature::Tensor;

int fail(const std::string &message) {
  std::fprintf(stderr, "mxq-gpu-launch: error: %s\n", message.c_str());
  return 1;
}

/// Bytes per element in memory and the .npy dtype of an element type.
bool typeInfo(const std::string &type, unsigned &bytes, std::string &descr) {
  const mxq::ElementTypeInfo *info = mxq::elementTypeInfo(type);
  if (!info)
    return false;
  bytes = info->bytes;
  descr = info->npyDescr;
  return true;
}

} // namespace

/// The most arguments an entry may take (its C interface is called with one
/// pointer per argument after the result pointer).
constexpr size_t kMaxArguments = 8;

template <size_t... I>
static void callWithPointers(void *fn, void *results,
                             const std::vector<void *> &args,
                             std::index_sequence<I...>) {
  using F = void (*)(void *, decltype((void)I, (void *)nullptr)...);
  reinterpret_cast<F>(fn)(results, args[I]...);
}

/// Calls `fn(results, args...)`; false if there are too many arguments.
template <size_t N = 0>
static bool callEntry(void *fn, void *results,
                      const std::vector<void *> &args) {
  if constexpr (N > kMaxArguments) {
    return false;
  } else {
    if (args.size() == N) {
      callWithPointers(fn, results, args, std::make_index_sequence<N>());
      return true;
    }
    return callEntry<N + 1>(fn, results, args);
  }
}

static const char *kHelp =
    "mxq-gpu-launch: run a function compiled ahead of time by\n"
    "  mxq-run --target=nvvm --chip C --emit-library LIB.so\n"
    "on the first NVIDIA GPU (needs only its driver).\n\n"
    "usage: mxq-gpu-launch LIB.so --input A.npy [--input B.npy ...]\n"
    "                      --output-dir DIR [--repeat N [--copy-baseline]]\n\n"
    "  --input FILE      an argument, as a .npy file (in argument order)\n"
    "  --output-dir DIR  where result<i>.npy go\n"
    "  --repeat N        also time N calls (kernel time from CUDA events,\n"
    "                    wall time per call)\n"
    "  --copy-baseline   with --repeat: also time a device-to-device copy\n"
    "                    of the first input\n"
    "  --help            this text\n";

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      std::fputs(kHelp, stdout);
      return 0;
    }
  std::string library, outputDir;
  std::vector<std::string> inputs;
  int repeat = 0;
  bool copyBaseline = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char *flag) -> const char * {
      if (i + 1 >= argc) {
        fail(std::string(flag) + " needs a value");
        std::exit(1);
      }
      return argv[++i];
    };
    if (a == "--input")
      inputs.push_back(value("--input"));
    else if (a == "--output-dir")
      outputDir = value("--output-dir");
    else if (a == "--repeat")
      repeat = std::atoi(value("--repeat"));
    else if (a == "--copy-baseline")
      copyBaseline = true;
    else if (!a.empty() && a[0] != '-' && library.empty())
      library = a;
    else
      return fail("unknown argument '" + a + "'");
  }
  if (library.empty() || outputDir.empty())
    return fail("usage: mxq-gpu-launch LIB.so --input A.npy ... --output-dir "
                "DIR [--repeat N]");
  if (repeat < 0)
    return fail("--repeat must not be negative");

  // The signature mxq-run wrote beside the library.
  std::ifstream sig(library + ".sig");
  if (!sig)
    return fail("cannot open '" + library + ".sig' (written by mxq-run "
                "--target=nvvm --emit-library)");
  mxq::nvvm::LibrarySignature signature;
  std::string why;
  if (!mxq::nvvm::LibrarySignature::parse(sig, signature, why))
    return fail("'" + library + ".sig' has " + why);
  const std::string &entry = signature.entry;
  const std::vector<Tensor> &args = signature.args;
  const std::vector<Tensor> &results = signature.results;
  if (args.size() != inputs.size())
    return fail("@" + entry + " takes " + std::to_string(args.size()) +
                " arguments, but " + std::to_string(inputs.size()) +
                " --input files were given");

  // Loading the library resolves its mgpu* calls against this program and
  // runs its constructor, which loads the kernels (through the driver).
  std::string error;
  void *lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return fail(std::string("cannot load '") + library + "': " + dlerror());
  // The .sig must be the one written with this library: another library's
  // would pass descriptors of the wrong ranks and types to its code.
  const char *embedded = static_cast<const char *>(
      dlsym(lib, mxq::nvvm::LibrarySignature::kSymbol));
  if (!embedded)
    return fail("'" + library + "' carries no signature (mxq-run "
                "--target=nvvm --emit-library writes libraries that do)");
  {
    std::istringstream in(embedded);
    mxq::nvvm::LibrarySignature own;
    if (!mxq::nvvm::LibrarySignature::parse(in, own, why))
      return fail("'" + library + "' carries a signature that has " + why);
    if (own.str() != signature.str())
      return fail("'" + library + ".sig' does not match '" + library +
                  "': the file says '" + signature.oneLine() +
                  "', the library '" + own.oneLine() + "'");
  }
  auto *fn = reinterpret_cast<void (*)(void **)>(
      dlsym(lib, ("_mlir_ciface_" + entry).c_str()));
  if (!fn)
    return fail("'" + library + "' has no _mlir_ciface_" + entry);
  std::string loadError = mxq::gpuruntime::takeError();
  if (!loadError.empty())
    return fail("loading the kernels failed: " + loadError);
  mxq::cuda::Driver *d = mxq::cuda::driver(error);
  if (!d)
    return fail(error);

  // Inputs to the device.
  std::vector<mxq::cuda::CUdeviceptr> device(inputs.size(), 0);
  std::vector<std::vector<int64_t>> shapes(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    mxq::npy::Array a;
    if (!mxq::npy::read(inputs[i], a, error))
      return fail("input " + std::to_string(i) + ": " + error);
    unsigned bytes;
    std::string descr;
    if (!typeInfo(args[i].type, bytes, descr))
      return fail("input " + std::to_string(i) + ": unsupported type " +
                  args[i].type);
    if (a.descr != descr || int64_t(a.shape.size()) != args[i].rank)
      return fail("input " + std::to_string(i) + ": expected dtype " + descr +
                  " and rank " + std::to_string(args[i].rank) + " for " +
                  args[i].type);
    shapes[i] = a.shape;
    // FP4 codes stay packed (the kernels' memory form); the descriptor has
    // the logical shape.
    const std::vector<uint8_t> &data = a.data;
    if (args[i].type == "f4E2M1FN" && !shapes[i].empty())
      shapes[i].back() *= 2;
    if (!data.empty() &&
        (d->cuMemAlloc(&device[i], data.size()) != mxq::cuda::kSuccess ||
         d->cuMemcpyHtoD(device[i], data.data(), data.size()) !=
             mxq::cuda::kSuccess))
      return fail("cannot copy input " + std::to_string(i) + " to the GPU");
  }

  std::vector<int64_t> ranks;
  for (const Tensor &r : results)
    ranks.push_back(r.rank);
  std::vector<int64_t> resultStruct(mxq::memref::resultWords(ranks), 0);
  auto call = [&]() -> bool {
    std::vector<std::vector<int64_t>> descriptors;
    for (size_t i = 0; i < inputs.size(); ++i)
      descriptors.push_back(
          mxq::memref::descriptor(reinterpret_cast<void *>(device[i]),
                                  shapes[i]));
    std::vector<void *> ptrs;
    for (auto &dsc : descriptors)
      ptrs.push_back(dsc.data());
    // _mlir_ciface_entry(results*, descriptors*...).
    if (!callEntry(reinterpret_cast<void *>(fn), resultStruct.data(), ptrs)) {
      error = "functions of more than " + std::to_string(kMaxArguments) +
              " arguments are not supported";
      return false;
    }
    error = mxq::gpuruntime::takeError();
    return error.empty();
  };
  auto freeResults = [&]() {
    size_t at = 0;
    std::vector<void *> freed;
    for (const Tensor &r : results) {
      void *allocated = mxq::memref::allocated(&resultStruct[at]);
      at += 3 + 2 * r.rank;
      bool isInput = false;
      for (auto p : device)
        isInput |= reinterpret_cast<void *>(p) == allocated;
      bool seen = false;
      for (void *f : freed)
        seen |= f == allocated;
      if (allocated && !isInput && !seen) {
        d->cuMemFree(reinterpret_cast<mxq::cuda::CUdeviceptr>(allocated));
        freed.push_back(allocated);
      }
    }
  };

  if (results.empty())
    return fail("@" + entry + " returns nothing");
  if (!call())
    return fail("@" + entry + " failed on the GPU: " + error);
  mkdir(outputDir.c_str(), 0755);
  size_t at = 0;
  for (size_t k = 0; k < results.size(); ++k) {
    const int64_t *w = resultStruct.data() + at;
    int64_t rank = results[k].rank;
    at += 3 + 2 * rank;
    unsigned bytes;
    std::string descr;
    if (!typeInfo(results[k].type, bytes, descr))
      return fail("result " + std::to_string(k) + ": unsupported type " +
                  results[k].type);
    std::vector<int64_t> shape;
    std::vector<uint8_t> data;
    bool copied = true;
    mxq::memref::gather(
        w, rank, bytes,
        [&](void *dst, const uint8_t *src, size_t n) {
          copied = d->cuMemcpyDtoH(dst,
                                   reinterpret_cast<mxq::cuda::CUdeviceptr>(src),
                                   n) == mxq::cuda::kSuccess;
        },
        shape, data, results[k].type == "f4E2M1FN");
    if (!copied)
      return fail("cannot copy result " + std::to_string(k) + " back");
    mxq::npy::Array out;
    out.descr = descr;
    out.shape = shape;
    out.data = data;
    if (results[k].type == "f4E2M1FN" && !out.shape.empty())
      out.shape.back() = (shape.back() + 1) / 2;
    std::string path = outputDir + "/result" + std::to_string(k) + ".npy";
    if (!mxq::npy::write(path, out, error))
      return fail(error);
  }
  freeResults();

  if (repeat > 0) {
    mxq::gpuruntime::setTiming(true);
    mxq::gpuruntime::takeKernelMillis();
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < repeat; ++i) {
      if (!call())
        return fail("@" + entry + " failed on the GPU: " + error);
      freeResults();
    }
    auto stop = std::chrono::steady_clock::now();
    double wall =
        std::chrono::duration<double, std::milli>(stop - start).count() /
        repeat;
    std::printf("%s on %s (%s): kernels %.4f ms per call, wall %.4f ms\n",
                entry.c_str(), d->deviceName.c_str(), signature.chip.c_str(),
                mxq::gpuruntime::takeKernelMillis() / repeat, wall);
  }
  if (repeat > 0 && copyBaseline && !device.empty()) {
    // A device-to-device copy of the first input's bytes, timed by events.
    size_t bytes = 1;
    {
      unsigned size;
      std::string descr;
      typeInfo(args[0].type, size, descr);
      bytes = size;
      for (int64_t dim : shapes[0])
        bytes *= dim;
    }
    double ms = 0;
    std::string why;
    if (!mxq::gpuruntime::timeDeviceCopy(bytes, repeat, ms, why))
      return fail(why);
    std::printf("copy of %zu bytes: %.4f ms\n", bytes, ms);
  }
  for (auto p : device)
    if (p)
      d->cuMemFree(p);
  return 0;
}
