//===- MXQModule.cpp - the native part of the Python package mxq ----------===//
//
// pybind11 bindings over the C++ API: a context with mxq's dialects, modules
// (parse, print, run a pass pipeline), and functions compiled for a target
// (mxq::CompiledFunction, the path mxq-run takes) that run on NumPy arrays in
// mxq-run's .npy conventions. Every error is a ValueError carrying the
// dialect's diagnostic text. The op functions and the seed systems' calls are
// Python, in mxq/*.py.
//
//===----------------------------------------------------------------------===//
#include "mxq/Execution/Execution.h"
#include "mxq/InitAll.h"
#include "mxq/Support/Npy.h"
#include "mxq/Target/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>

namespace py = pybind11;
using namespace mlir;

namespace {

void initialize() {
  static bool done = false;
  if (done)
    return;
  done = true;
  ::mxq::registerAllTargets();
  ::mxq::registerPasses();
}

struct MxqContext {
  MxqContext() {
    initialize();
    DialectRegistry registry;
    ::mxq::registerDialects(registry);
    context = std::make_unique<MLIRContext>(registry);
    context->loadAllAvailableDialects();
  }
  std::unique_ptr<MLIRContext> context;
};

struct MxqModule {
  std::shared_ptr<MxqContext> context;
  OwningOpRef<ModuleOp> module;

  std::string str() {
    std::string s;
    llvm::raw_string_ostream os(s);
    module->print(os);
    return s;
  }
};

[[noreturn]] void raise(const std::string &message) {
  throw py::value_error(message);
}

std::shared_ptr<MxqModule> parseModule(std::shared_ptr<MxqContext> context,
                                      const std::string &text) {
  ::mxq::DiagnosticCollector diagnostics(context->context.get());
  auto module = std::make_shared<MxqModule>();
  module->context = context;
  module->module = parseSourceString<ModuleOp>(
      text, context->context.get(), "<mxq.Module.parse>");
  if (!module->module) {
    std::string text = diagnostics.take();
    raise(text.empty() ? "the module does not parse" : text);
  }
  if (failed(verify(*module->module))) {
    std::string text = diagnostics.take();
    raise(text.empty() ? "the module does not verify" : text);
  }
  return module;
}

void runPipeline(MxqModule &module, const std::string &pipeline) {
  MLIRContext *ctx = module.context->context.get();
  ::mxq::DiagnosticCollector diagnostics(ctx);
  std::string err;
  llvm::raw_string_ostream errs(err);
  // The anchored form ("builtin.module(...)"), as mxq-opt --pass-pipeline
  // and mlirParsePassPipeline take it.
  FailureOr<OpPassManager> parsed = parsePassPipeline(pipeline, errs);
  if (failed(parsed)) {
    std::string text = diagnostics.take();
    raise("cannot parse the pass pipeline '" + pipeline + "': " + err +
          (text.empty() ? "" : "\n" + text));
  }
  PassManager pm(ctx, parsed->getOpAnchorName());
  static_cast<OpPassManager &>(pm) = std::move(*parsed);
  if (failed(pm.run(*module.module))) {
    std::string text = diagnostics.take();
    raise(text.empty() ? "the pass pipeline '" + pipeline + "' failed" : text);
  }
}

/// A compiled function; holds its context alive.
struct MxqKernel {
  std::shared_ptr<MxqContext> context;
  std::unique_ptr<::mxq::CompiledFunction> function;

  py::tuple call(py::args args, int64_t fp4Length) {
    std::vector<::mxq::npy::Array> inputs;
    for (py::handle h : args) {
      if (!py::isinstance<py::array>(h))
        raise("argument " + std::to_string(inputs.size()) +
              " is not a NumPy array (it is a " +
              std::string(py::str(py::type::of(h).attr("__name__"))) + ")");
      // C-contiguous input is read in place; anything else is copied into
      // C order first (documented in mxq/__init__.py).
      py::array a = py::array::ensure(h, py::array::c_style);
      if (!a)
        raise("argument " + std::to_string(inputs.size()) +
              " cannot be made C-contiguous");
      ::mxq::npy::Array n;
      n.descr = std::string(py::str(a.dtype().attr("str")));
      // NumPy spells single-byte types "|u1"; big-endian data is refused
      // by the descr check of tensorFromNpy with its type named.
      for (py::ssize_t d = 0; d < a.ndim(); ++d)
        n.shape.push_back(a.shape(d));
      n.data.resize(a.nbytes());
      if (a.nbytes())
        std::memcpy(n.data.data(), a.data(), a.nbytes());
      inputs.push_back(std::move(n));
    }
    std::vector<::mxq::npy::Array> results;
    std::string error;
    {
      ::mxq::DiagnosticCollector diagnostics(context->context.get());
      bool ok;
      {
        py::gil_scoped_release release;
        ok = function->runNpy(inputs, results, error, fp4Length);
      }
      if (!ok) {
        std::string text = diagnostics.take();
        raise(text.empty() ? error : error + "\n" + text);
      }
    }
    py::tuple out(results.size());
    for (size_t i = 0; i < results.size(); ++i) {
      const ::mxq::npy::Array &r = results[i];
      py::dtype dtype(r.descr);
      std::vector<py::ssize_t> shape(r.shape.begin(), r.shape.end());
      py::array a(dtype, shape);
      if (!r.data.empty())
        std::memcpy(a.mutable_data(), r.data.data(), r.data.size());
      out[i] = a;
    }
    return out;
  }
};

std::shared_ptr<MxqKernel> compile(MxqModule &module, const std::string &entry,
                                  const std::string &target,
                                  const std::string &chip, int isaVersion,
                                  const std::vector<int64_t> &tileSizes) {
  ::mxq::TargetOptions options;
  options.chip = chip;
  options.isaVersion = isaVersion;
  options.tileSizes = tileSizes;
  MLIRContext *ctx = module.context->context.get();
  ::mxq::DiagnosticCollector diagnostics(ctx);
  std::string error;
  auto kernel = std::make_shared<MxqKernel>();
  kernel->context = module.context;
  kernel->function = ::mxq::CompiledFunction::compile(*module.module, entry,
                                                      target, options, error);
  if (!kernel->function) {
    std::string text = diagnostics.take();
    raise(text.empty() ? error : error + "\n" + text);
  }
  return kernel;
}

std::vector<std::string> targetNames(bool runnableOnly) {
  initialize();
  std::vector<std::string> names;
  for (const ::mxq::Target *t : ::mxq::registeredTargets()) {
    std::string why;
    if (!runnableOnly || t->canRun(why))
      names.push_back(t->name().str());
  }
  return names;
}

} // namespace

PYBIND11_MODULE(_mxq, m) {
  m.doc() = "mxq's native module (use the package mxq)";
  py::class_<MxqContext, std::shared_ptr<MxqContext>>(m, "Context")
      .def(py::init<>());
  py::class_<MxqModule, std::shared_ptr<MxqModule>>(m, "Module")
      .def_static("parse", &parseModule, py::arg("context"), py::arg("text"))
      .def("__str__", &MxqModule::str)
      .def("run_pass_pipeline", &runPipeline, py::arg("pipeline"))
      .def_property_readonly("context",
                             [](MxqModule &m) { return m.context; });
  py::class_<MxqKernel, std::shared_ptr<MxqKernel>>(m, "Kernel")
      .def("__call__", &MxqKernel::call, py::kw_only(),
           py::arg("fp4_length") = -1)
      .def_property_readonly("target",
                             [](MxqKernel &k) {
                               return k.function->getTargetName().str();
                             })
      .def_property_readonly("signature", [](MxqKernel &k) {
        std::string s;
        llvm::raw_string_ostream os(s);
        os << k.function->getFunctionType();
        return s;
      });
  m.def("compile", &compile, py::arg("module"), py::arg("entry"),
        py::arg("target") = "cpu", py::arg("chip") = "",
        py::arg("isa_version") = 0,
        py::arg("tile_sizes") = std::vector<int64_t>());
  m.def("compile_count", &::mxq::CompiledFunction::numCompiles,
        "how many functions this process has compiled");
  m.def("target_names", &targetNames, py::arg("runnable_only") = false);
}
