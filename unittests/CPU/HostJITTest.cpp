//===- HostJITTest.cpp - the process-wide JIT for host code ---------------===//
//
// detail::jitCompileForHost: a module's function is called through its
// packed wrapper (arguments and the result through pointers), code of one
// module stays callable when another's is freed, functions of the process
// are found, and each failure (no such function, a library that cannot be
// loaded, a symbol nothing defines) is a sentence that names it.
//
//===----------------------------------------------------------------------===//
#include "mxq/InitAll.h"
#include "mxq/Runtime/HostJIT.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

using namespace mlir;
using namespace mxq;

namespace {
const char *kFunctions = R"mlir(
llvm.func @strlen(!llvm.ptr) -> i64
llvm.func @mul_add(%a: i64, %b: i64, %c: i64) -> i64 {
  %p = llvm.mul %a, %b : i64
  %s = llvm.add %p, %c : i64
  llvm.return %s : i64
}
llvm.func @length(%s: !llvm.ptr) -> i64 {
  %n = llvm.call @strlen(%s) : (!llvm.ptr) -> i64
  llvm.return %n : i64
}
llvm.func @store(%p: !llvm.ptr, %v: i32) {
  llvm.store %v, %p : i32, !llvm.ptr
  llvm.return
}
)mlir";

const char *kUndefined = R"mlir(
llvm.func @mxq_no_such_symbol_anywhere(i64) -> i64
llvm.func @call(%a: i64) -> i64 {
  %r = llvm.call @mxq_no_such_symbol_anywhere(%a) : (i64) -> i64
  llvm.return %r : i64
}
)mlir";

struct HostJITTest : ::testing::Test {
  HostJITTest() {
    DialectRegistry registry;
    registerDialects(registry);
    context = std::make_unique<MLIRContext>(registry);
    context->loadDialect<LLVM::LLVMDialect>();
  }

  std::shared_ptr<mxq::detail::HostCode>
  compile(const char *text, StringRef function, std::string &error,
          llvm::ArrayRef<llvm::StringRef> libs = {}) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(text, context.get());
    EXPECT_TRUE(module);
    if (!module)
      return nullptr;
    return mxq::detail::jitCompileForHost(*module, function, nullptr, libs, error);
  }

  std::unique_ptr<MLIRContext> context;
};

TEST_F(HostJITTest, ArgumentsAndResultThroughPointers) {
  std::string error;
  auto code = compile(kFunctions, "mul_add", error);
  ASSERT_TRUE(code) << error;
  int64_t a = 6, b = 7, c = -2, r = 0;
  void *args[] = {&a, &b, &c, &r};
  code->invoke(args);
  EXPECT_EQ(r, 40);
}

TEST_F(HostJITTest, FunctionWithoutResult) {
  std::string error;
  auto code = compile(kFunctions, "store", error);
  ASSERT_TRUE(code) << error;
  int32_t target = 0, value = 1234;
  int32_t *p = &target;
  void *args[] = {&p, &value};
  code->invoke(args);
  EXPECT_EQ(target, 1234);
}

TEST_F(HostJITTest, CallsFunctionsOfTheProcess) {
  std::string error;
  auto code = compile(kFunctions, "length", error);
  ASSERT_TRUE(code) << error;
  const char *s = "microscaling";
  int64_t n = 0;
  void *args[] = {&s, &n};
  code->invoke(args);
  EXPECT_EQ(n, 12);
}

TEST_F(HostJITTest, CodeOutlivesOtherModulesCode) {
  std::string error;
  auto first = compile(kFunctions, "mul_add", error);
  auto second = compile(kFunctions, "mul_add", error);
  ASSERT_TRUE(first && second) << error;
  first.reset(); // frees the first module's code only
  int64_t a = 3, b = 5, c = 1, r = 0;
  void *args[] = {&a, &b, &c, &r};
  second->invoke(args);
  EXPECT_EQ(r, 16);
  // Many compiles in a row, each freed: the JIT takes them all.
  for (int i = 0; i < 20; ++i)
    ASSERT_TRUE(compile(kFunctions, "mul_add", error)) << error;
}

TEST_F(HostJITTest, CompilesFromSeveralThreadsAtOnce) {
  // Each thread parses in a context of its own (an MLIRContext is not for
  // concurrent parsing) and compiles into the one JIT.
  std::atomic<int> good{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&good, t] {
      DialectRegistry registry;
      registerDialects(registry);
      MLIRContext ctx(registry);
      ctx.loadDialect<LLVM::LLVMDialect>();
      for (int i = 0; i < 5; ++i) {
        OwningOpRef<ModuleOp> module =
            parseSourceString<ModuleOp>(kFunctions, &ctx);
        std::string error;
        auto code = module ? mxq::detail::jitCompileForHost(
                                 *module, "mul_add", nullptr, {}, error)
                           : nullptr;
        if (!code)
          return;
        int64_t a = t, b = i, c = 1, r = -1;
        void *args[] = {&a, &b, &c, &r};
        code->invoke(args);
        if (r == t * i + 1)
          ++good;
      }
    });
  for (std::thread &th : threads)
    th.join();
  EXPECT_EQ(good.load(), 20);
}

TEST_F(HostJITTest, NoSuchFunction) {
  std::string error;
  EXPECT_FALSE(compile(kFunctions, "absent", error));
  EXPECT_EQ(error, "the module defines no function absent");
  error.clear();
  // A declaration is not a definition.
  EXPECT_FALSE(compile(kFunctions, "strlen", error));
  EXPECT_EQ(error, "the module defines no function strlen");
}

TEST_F(HostJITTest, LibraryThatCannotBeLoaded) {
  std::string error;
  EXPECT_FALSE(compile(kFunctions, "mul_add", error,
                       {"/nonexistent/libmxq-missing.so"}));
  EXPECT_NE(error.find("cannot load /nonexistent/libmxq-missing.so"),
            std::string::npos)
      << error;
}

TEST_F(HostJITTest, SymbolNothingDefines) {
  std::string error;
  EXPECT_FALSE(compile(kUndefined, "call", error));
  EXPECT_NE(error.find("cannot generate code for call"), std::string::npos)
      << error;
  EXPECT_NE(error.find("Symbols not found: [ mxq_no_such_symbol_anywhere ]"),
            std::string::npos)
      << error;
}
} // namespace
