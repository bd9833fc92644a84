//===- GPURunner.cpp - compile and run mxq functions on an NVIDIA GPU -----===//
#include "mxq/Target/NVVM/GPURunner.h"
#include "mxq/Runtime/Descriptors.h"
#include "mxq/Target/NVVM/GPURuntime.h"
#include "mxq/Target/NVVM/LibrarySignature.h"
#include "mxq/Target/NVVM/NVVMTarget.h"
#include "mxq/Target/NVVM/CUDADriver.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;

namespace mxq {

struct GPUExecutable::Impl : detail::CompiledEntry {};

/// Runs mxq-gpu-pipeline (kernels as PTX) on `module`.
static bool lowerForGPU(ModuleOp module, const std::string &chip, int ptx,
                        std::string &error) {
  return detail::lowerModule(
      module,
      [&](OpPassManager &pm) {
        GPUPipelineOptions options;
        options.chip = chip;
        options.ptx = ptx;
        buildGPUPipeline(pm, options);
        return success();
      },
      "the GPU pipeline failed for " + chip, error);
}

GPUExecutable::~GPUExecutable() = default;

std::string GPUExecutable::deviceChip(std::string &error) {
  cuda::Driver *d = cuda::driver(error);
  return d ? d->chip : std::string();
}

std::unique_ptr<GPUExecutable>
GPUExecutable::compile(ModuleOp module, const std::string &entry,
                       std::string chip, int ptx, std::string &error) {
  if (chip.empty()) {
    std::string why;
    chip = deviceChip(why);
    if (chip.empty()) {
      error = "no chip was given and there is no GPU to ask: " + why;
      return nullptr;
    }
  }
  auto impl = std::make_unique<Impl>();
  impl->entry = entry;
  if (!detail::prepareEntry(module, entry, impl->resultRanks,
                            impl->resultElementTypes, error))
    return nullptr;

  if (!lowerForGPU(module, chip, ptx, error))
    return nullptr;
  auto engine = detail::jitCompile(module, 2, {}, error);
  if (!engine)
    return nullptr;
  detail::registerSymbols(*engine, gpuruntime::symbols());
  impl->engine = std::move(engine);
  std::unique_ptr<GPUExecutable> exe(new GPUExecutable());
  exe->impl = std::move(impl);
  return exe;
}

bool GPUExecutable::emitSharedLibrary(ModuleOp module, const std::string &entry,
                                      std::string chip, int ptx,
                                      const std::string &path,
                                      std::string &error) {
  if (chip.empty()) {
    error = "a chip is needed to compile ahead of time (--chip)";
    return false;
  }
  auto typeName = [](Type t) {
    std::string name;
    llvm::raw_string_ostream os(name);
    os << t;
    return name;
  };
  nvvm::LibrarySignature signature;
  signature.entry = entry;
  signature.chip = chip;
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (func)
    for (Type t : func.getFunctionType().getInputs()) {
      auto rt = dyn_cast<RankedTensorType>(t);
      if (!rt || !bytesPerElement(rt.getElementType())) {
        error = "@" + entry + " takes an argument that is not a ranked tensor "
                "of a supported element type";
        return false;
      }
      signature.args.push_back({rt.getRank(), typeName(rt.getElementType())});
    }
  std::vector<int64_t> ranks;
  std::vector<Type> types;
  if (!detail::prepareEntry(module, entry, ranks, types, error))
    return false;
  for (auto [rank, type] : llvm::zip(ranks, types))
    signature.results.push_back({rank, typeName(type)});
  if (!lowerForGPU(module, chip, ptx, error))
    return false;

  // The host code to an object file, then a shared library.
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context);
  if (!llvmModule) {
    error = "cannot translate the host code to LLVM IR";
    return false;
  }
  // The signature inside the library too (LibrarySignature::kSymbol), which
  // mxq-gpu-launch compares with the .sig beside it.
  llvm::Constant *text = llvm::ConstantDataArray::getString(
      context, signature.str(), /*AddNull=*/true);
  new llvm::GlobalVariable(*llvmModule, text->getType(), /*isConstant=*/true,
                           llvm::GlobalValue::ExternalLinkage, text,
                           nvvm::LibrarySignature::kSymbol);
  detail::initializeNativeTarget();
  std::string triple = llvm::sys::getDefaultTargetTriple();
  std::string lookupError;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(llvm::Triple(triple), lookupError);
  if (!target) {
    error = "no LLVM target for " + triple + ": " + lookupError;
    return false;
  }
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      llvm::Triple(triple), "generic", "", llvm::TargetOptions(),
      llvm::Reloc::PIC_));
  llvmModule->setDataLayout(machine->createDataLayout());
  llvmModule->setTargetTriple(llvm::Triple(triple));
  std::string object = path + ".o";
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(object, ec, llvm::sys::fs::OF_None);
    if (ec) {
      error = "cannot write '" + object + "': " + ec.message();
      return false;
    }
    llvm::legacy::PassManager pm;
    if (machine->addPassesToEmitFile(pm, out, nullptr,
                                     llvm::CodeGenFileType::ObjectFile)) {
      error = "LLVM cannot emit an object file for " + triple;
      return false;
    }
    pm.run(*llvmModule);
  }
  auto cxx = llvm::sys::findProgramByName("c++");
  if (!cxx) {
    error = "no C++ compiler (c++) on the PATH to link '" + path + "'";
    return false;
  }
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(
      *cxx, {*cxx, "-shared", "-o", path, object}, std::nullopt, {}, 0, 0,
      &message);
  llvm::sys::fs::remove(object);
  if (rc != 0) {
    error = "linking '" + path + "' failed" +
            (message.empty() ? std::string() : ": " + message);
    return false;
  }
  std::error_code ec;
  llvm::raw_fd_ostream sig(path + ".sig", ec, llvm::sys::fs::OF_Text);
  if (ec) {
    error = "cannot write '" + path + ".sig': " + ec.message();
    return false;
  }
  sig << signature.str();
  return true;
}

namespace {

/// Device copies of the inputs, freed on destruction.
struct DeviceInputs {
  cuda::Driver *d;
  std::vector<void *> pointers;
  ~DeviceInputs() {
    for (void *p : pointers)
      if (p)
        d->cuMemFree(reinterpret_cast<cuda::CUdeviceptr>(p));
  }
  bool upload(const std::vector<RawTensor> &inputs, std::string &error) {
    for (const RawTensor &t : inputs) {
      cuda::CUdeviceptr p = 0;
      if (!t.data.empty()) {
        cuda::CUresult r = d->cuMemAlloc(&p, t.data.size());
        if (r == cuda::kSuccess)
          r = d->cuMemcpyHtoD(p, t.data.data(), t.data.size());
        if (r != cuda::kSuccess) {
          error = d->describe("copying an input to the GPU", r);
          return false;
        }
      }
      pointers.push_back(reinterpret_cast<void *>(p));
    }
    return true;
  }
};

} // namespace

/// Calls the entry on device buffers; the results' descriptors land in
/// `resultStruct`. The host code waits for its kernels before returning.
static bool invoke(ExecutionEngine &engine, const std::string &entry,
                   const std::vector<int64_t> &ranks,
                   const std::vector<RawTensor> &inputs,
                   const std::vector<void *> &device,
                   std::vector<int64_t> &resultStruct, std::string &error) {
  resultStruct.assign(detail::resultWords(ranks), 0);
  void *resultPtr = resultStruct.data();
  std::vector<std::vector<int64_t>> descriptors;
  for (size_t i = 0; i < inputs.size(); ++i)
    descriptors.push_back(detail::descriptor(device[i], inputs[i].shape));
  std::vector<void *> descriptorPtrs;
  for (auto &d : descriptors)
    descriptorPtrs.push_back(d.data());
  std::vector<void *> args;
  if (!ranks.empty())
    args.push_back(&resultPtr);
  for (void *&p : descriptorPtrs)
    args.push_back(&p);
  gpuruntime::takeError();
  if (llvm::Error e = engine.invokePacked("_mlir_ciface_" + entry, args)) {
    error = "cannot call @" + entry + ": " + llvm::toString(std::move(e));
    return false;
  }
  std::string failure = gpuruntime::takeError();
  if (!failure.empty()) {
    error = "@" + entry + " failed on the GPU: " + failure;
    return false;
  }
  return true;
}

namespace {

/// The driver, the inputs copied to the device, and calls of the entry on
/// them.
struct Session {
  ExecutionEngine &engine;
  const std::string &entry;
  const std::vector<int64_t> &ranks;
  const std::vector<RawTensor> &inputs;
  cuda::Driver *d = nullptr;
  DeviceInputs device{nullptr, {}};
  std::vector<int64_t> resultStruct;

  /// Opens the driver, uploads the inputs and calls the entry once.
  bool start(std::string &error) {
    d = cuda::driver(error);
    if (!d)
      return false;
    device.d = d;
    return device.upload(inputs, error) && call(error);
  }
  bool call(std::string &error) {
    return invoke(engine, entry, ranks, inputs, device.pointers, resultStruct,
                  error);
  }
  void freeResults() {
    for (void *p :
         detail::resultAllocations(resultStruct, ranks, device.pointers))
      d->cuMemFree(reinterpret_cast<cuda::CUdeviceptr>(p));
  }
};

} // namespace

bool GPUExecutable::run(const std::vector<RawTensor> &inputs,
                        std::vector<RawTensor> &results, std::string &error) {
  Session session{*impl->engine, impl->entry, impl->resultRanks, inputs};
  if (!session.start(error))
    return false;
  cuda::Driver *d = session.d;
  cuda::CUresult status = cuda::kSuccess;
  detail::copyResults(
      session.resultStruct, impl->resultRanks, impl->resultElementTypes,
      [&](void *dst, const uint8_t *src, size_t n) {
        cuda::CUresult r = d->cuMemcpyDtoH(
            dst, reinterpret_cast<cuda::CUdeviceptr>(src), n);
        if (status == cuda::kSuccess)
          status = r;
      },
      results);
  session.freeResults();
  if (status != cuda::kSuccess) {
    error = d->describe("copying a result from the GPU", status);
    return false;
  }
  return true;
}

bool GPUExecutable::time(const std::vector<RawTensor> &inputs, int repeat,
                         double &kernelMillis, double &wallMillis,
                         std::string &error) {
  Session session{*impl->engine, impl->entry, impl->resultRanks, inputs};
  // The first call warms up: module load, first allocations from the pool.
  if (!session.start(error))
    return false;
  session.freeResults();
  gpuruntime::setTiming(true);
  gpuruntime::takeKernelMillis();
  auto start = std::chrono::steady_clock::now();
  bool ok = true;
  for (int i = 0; i < repeat && ok; ++i) {
    ok = session.call(error);
    if (ok)
      session.freeResults();
  }
  auto stop = std::chrono::steady_clock::now();
  gpuruntime::setTiming(false);
  kernelMillis = gpuruntime::takeKernelMillis() / repeat;
  wallMillis =
      std::chrono::duration<double, std::milli>(stop - start).count() / repeat;
  return ok;
}

bool GPUExecutable::timeCopy(size_t bytes, int repeat, double &millis,
                             std::string &error) {
  return gpuruntime::timeDeviceCopy(bytes, repeat, millis, error);
}

} // namespace mxq
