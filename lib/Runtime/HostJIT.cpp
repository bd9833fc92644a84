//===- HostJIT.cpp - one LLVM JIT per process for host code ---------------===//
#include "mxq/Runtime/HostJIT.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"

#include <atomic>
#include <mutex>

using namespace mlir;

namespace mxq::detail {

namespace {
/// The process's JIT. Never destroyed: code that loaded the OpenMP runtime
/// must not be torn down by static destructors after that library's own,
/// and a HostCode held by a static (a cache) may outlive any other static.
class HostJIT {
public:
  static HostJIT *get(std::string &error) {
    static HostJIT *jit = [] {
      auto *j = new HostJIT();
      llvm::InitializeNativeTarget();
      llvm::InitializeNativeTargetAsmPrinter();
      auto made = llvm::orc::LLJITBuilder().create();
      if (!made)
        j->setupError = llvm::toString(made.takeError());
      else
        j->jit = std::move(*made);
      if (j->jit)
        // What fails while code is generated (a symbol nothing defines) is
        // reported here, not in the lookup's error: kept for the message.
        j->jit->getExecutionSession().setErrorReporter([j](llvm::Error e) {
          std::lock_guard<std::mutex> lock(j->reportMutex);
          j->reported += llvm::toString(std::move(e)) + "; ";
        });
      return j;
    }();
    if (!jit->jit) {
      error = "cannot set up the JIT: " + jit->setupError;
      return nullptr;
    }
    return jit;
  }

  /// The JITDylib that resolves the symbols of the shared library at
  /// `path`, loading it on first use.
  llvm::Expected<llvm::orc::JITDylib *> library(llvm::StringRef path) {
    auto it = libraries.find(path);
    if (it != libraries.end())
      return it->second;
    auto generator = llvm::orc::DynamicLibrarySearchGenerator::Load(
        path.str().c_str(), jit->getDataLayout().getGlobalPrefix());
    if (!generator)
      return generator.takeError();
    llvm::orc::JITDylib &jd =
        jit->getExecutionSession().createBareJITDylib(path.str());
    jd.addGenerator(std::move(*generator));
    libraries[path] = &jd;
    return &jd;
  }

  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::string setupError;
  /// Held while code is added and generated: LLJIT's compiler shares one
  /// target machine, which is not safe to use from two threads at once.
  std::mutex mutex;
  llvm::StringMap<llvm::orc::JITDylib *> libraries;
  std::atomic<uint64_t> count{0};
  std::mutex reportMutex;
  std::string reported;

  /// What the session reported since the last call.
  std::string takeReported() {
    std::lock_guard<std::mutex> lock(reportMutex);
    std::string s;
    std::swap(s, reported);
    return s;
  }
};

/// Adds `<function>.packed(ptr args)`, which loads each argument of
/// `function` from the pointer in `args[i]` and calls it (a result is
/// stored through the pointer after the arguments'), so that every function
/// is called through one C signature.
llvm::Function *addPackedWrapper(llvm::Module &m, llvm::Function &f) {
  llvm::LLVMContext &ctx = m.getContext();
  auto *ptr = llvm::PointerType::getUnqual(ctx);
  auto *type =
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptr}, false);
  auto *wrapper = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                         f.getName() + ".packed", m);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", wrapper));
  llvm::Value *args = wrapper->getArg(0);
  auto slot = [&](unsigned i) {
    llvm::Value *at = b.CreateConstGEP1_64(ptr, args, i);
    return b.CreateLoad(ptr, at);
  };
  llvm::SmallVector<llvm::Value *> values;
  for (llvm::Argument &a : f.args())
    values.push_back(b.CreateLoad(a.getType(), slot(a.getArgNo())));
  llvm::Value *result = b.CreateCall(&f, values);
  if (!f.getReturnType()->isVoidTy())
    b.CreateStore(result, slot(f.arg_size()));
  b.CreateRetVoid();
  return wrapper;
}
} // namespace

struct HostCode::State {
  llvm::orc::LLJIT *jit = nullptr;
  llvm::orc::JITDylib *dylib = nullptr;
};

HostCode::~HostCode() {
  if (!state || !state->dylib)
    return;
  // Frees the code and data memory of the module.
  llvm::consumeError(
      state->jit->getExecutionSession().removeJITDylib(*state->dylib));
}

std::shared_ptr<HostCode>
jitCompileForHost(ModuleOp module, llvm::StringRef function,
                  const std::function<llvm::Error(llvm::Module *)> &optimize,
                  llvm::ArrayRef<llvm::StringRef> libs, std::string &error) {
  HostJIT *host = HostJIT::get(error);
  if (!host)
    return nullptr;
  llvm::orc::LLJIT &jit = *host->jit;
  registerBuiltinDialectTranslation(*module->getContext());
  registerLLVMDialectTranslation(*module->getContext());
  auto context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, *context);
  if (!llvmModule) {
    error = "cannot translate the module to LLVM IR";
    return nullptr;
  }
  llvmModule->setDataLayout(jit.getDataLayout());
  llvmModule->setTargetTriple(jit.getTargetTriple());
  llvm::Function *f = llvmModule->getFunction(function);
  if (!f || f->isDeclaration()) {
    error = "the module defines no function " + function.str();
    return nullptr;
  }
  std::string packedName = addPackedWrapper(*llvmModule, *f)->getName().str();
  if (optimize)
    if (llvm::Error e = optimize(llvmModule.get())) {
      error = "cannot optimise the LLVM IR: " + llvm::toString(std::move(e));
      return nullptr;
    }

  std::shared_ptr<HostCode> code(new HostCode());
  code->state = std::make_unique<HostCode::State>();
  code->state->jit = &jit;
  std::lock_guard<std::mutex> lock(host->mutex);
  host->takeReported();
  auto fail = [&](llvm::Error e, const std::string &what) {
    error = what + ": " + host->takeReported() + llvm::toString(std::move(e));
    return nullptr;
  };
  auto dylib = jit.createJITDylib("mxq.code." + std::to_string(host->count++));
  if (!dylib)
    return fail(dylib.takeError(), "cannot create a JIT library");
  code->state->dylib = &*dylib;
  for (llvm::StringRef lib : libs) {
    auto jd = host->library(lib);
    if (!jd)
      return fail(jd.takeError(), "cannot load " + lib.str());
    dylib->addToLinkOrder(**jd);
  }
  if (llvm::Error e = jit.addIRModule(
          *dylib,
          llvm::orc::ThreadSafeModule(std::move(llvmModule), std::move(context))))
    return fail(std::move(e), "cannot add the module to the JIT");
  // Generates the machine code now (the JIT compiles on the first lookup),
  // so that a failure is reported here.
  auto address = jit.lookup(*dylib, packedName);
  if (!address)
    return fail(address.takeError(),
                "cannot generate code for " + function.str());
  code->packed = address->toPtr<void (*)(void **)>();
  return code;
}

} // namespace mxq::detail
