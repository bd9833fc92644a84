//===- CompileCacheTest.cpp - the CPU target's compiled-function cache ----===//
//
// The same function text and options compile once per process; a different
// option or text compiles again; a cached function compiled in a context that
// has since been destroyed still runs, with result types of the caller's
// context, and gives the bytes a fresh compile gives.
//
//===----------------------------------------------------------------------===//
#include "mxq/InitAll.h"
#include "mxq/Target/CPU/CPURunner.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

using namespace mlir;
using namespace mxq;

namespace {
const char *kQuantize = R"mlir(
func.func @f(%x: tensor<?x?xf32>) -> (tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>) {
  %q, %s = mxq.quantize %x axis = 1 scale = rceil : tensor<?x?xf32> -> tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
  return %q, %s : tensor<?x?xf8E4M3FN>, tensor<?x?xf8E8M0FNU>
}
)mlir";

std::unique_ptr<MLIRContext> makeContext() {
  DialectRegistry registry;
  registerDialects(registry);
  return std::make_unique<MLIRContext>(registry);
}

RawTensor input(MLIRContext &ctx) {
  RawTensor t;
  t.shape = {3, 70}; // ragged: two whole blocks and one of 6 a row
  t.elementType = Float32Type::get(&ctx);
  t.data.resize(3 * 70 * 4);
  for (int i = 0; i < 3 * 70; ++i) {
    float v = (i % 17 - 8) * 0.37f * float(1 << (i % 9));
    std::memcpy(&t.data[4 * i], &v, 4);
  }
  return t;
}

std::unique_ptr<CPUExecutable> compile(MLIRContext &ctx, const char *text,
                                       unsigned threads, bool useCache) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
  EXPECT_TRUE(module);
  if (!module)
    return nullptr;
  std::string error;
  auto exe = CPUExecutable::compile(*module, "f", error, {}, threads, useCache);
  EXPECT_TRUE(exe) << error;
  return exe;
}

std::vector<RawTensor> run(CPUExecutable &exe, MLIRContext &ctx) {
  std::vector<RawTensor> results;
  std::string error;
  EXPECT_TRUE(exe.run({input(ctx)}, results, error)) << error;
  return results;
}

TEST(CPUCompileCache, SameTextAndOptionsCompileOnce) {
  clearCPUCompileCache();
  auto ctx = makeContext();
  auto first = compile(*ctx, kQuantize, 1, true);
  EXPECT_EQ(cpuCompileCacheStats().misses, 1u);
  EXPECT_EQ(cpuCompileCacheStats().hits, 0u);
  auto second = compile(*ctx, kQuantize, 1, true);
  EXPECT_EQ(cpuCompileCacheStats().hits, 1u);
  EXPECT_EQ(cpuCompileCacheStats().entries, 1u);
  ASSERT_TRUE(first && second);
  auto a = run(*first, *ctx), b = run(*second, *ctx);
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(b.size(), 2u);
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(a[k].data, b[k].data);
    EXPECT_EQ(a[k].shape, b[k].shape);
    EXPECT_EQ(a[k].elementType, b[k].elementType);
  }
}

TEST(CPUCompileCache, OptionsAndTextAreInTheKey) {
  clearCPUCompileCache();
  auto ctx = makeContext();
  compile(*ctx, kQuantize, 1, true);
  compile(*ctx, kQuantize, 2, true); // another thread count: other code
  EXPECT_EQ(cpuCompileCacheStats().misses, 2u);
  std::string other = kQuantize;
  other.replace(other.find("rceil"), 5, "floor");
  compile(*ctx, other.c_str(), 1, true);
  EXPECT_EQ(cpuCompileCacheStats().misses, 3u);
  EXPECT_EQ(cpuCompileCacheStats().hits, 0u);
  // Without the cache nothing is looked up or kept.
  compile(*ctx, kQuantize, 1, false);
  EXPECT_EQ(cpuCompileCacheStats().hits, 0u);
  EXPECT_EQ(cpuCompileCacheStats().entries, 3u);
}

TEST(CPUCompileCache, OutlivesTheContextThatCompiled) {
  clearCPUCompileCache();
  std::vector<RawTensor> fresh;
  {
    auto ctx = makeContext();
    auto exe = compile(*ctx, kQuantize, 1, true);
    ASSERT_TRUE(exe);
    fresh = run(*exe, *ctx);
  } // the compiling context and its executable are gone
  auto ctx = makeContext();
  auto exe = compile(*ctx, kQuantize, 1, true);
  EXPECT_EQ(cpuCompileCacheStats().hits, 1u);
  ASSERT_TRUE(exe);
  std::vector<RawTensor> again = run(*exe, *ctx);
  ASSERT_EQ(again.size(), fresh.size());
  for (size_t k = 0; k < again.size(); ++k) {
    EXPECT_EQ(again[k].data, fresh[k].data);
    EXPECT_EQ(again[k].shape, fresh[k].shape);
    // The result types are the new context's.
    EXPECT_EQ(again[k].elementType.getContext(), ctx.get());
  }
  EXPECT_TRUE(isa<Float8E4M3FNType>(again[0].elementType));
  EXPECT_TRUE(isa<Float8E8M0FNUType>(again[1].elementType));
}

TEST(CPUCompileCache, KeepsAtMostItsCapacity) {
  clearCPUCompileCache();
  auto ctx = makeContext();
  // 66 distinct small functions (their names differ): the first two leave.
  for (int i = 0; i < 66; ++i) {
    std::string name = "g" + std::to_string(i);
    std::string text = "func.func @" + name +
                       "(%x: tensor<?xi32>) -> tensor<?xi32> {\n"
                       "  return %x : tensor<?xi32>\n}\n";
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, ctx.get());
    ASSERT_TRUE(module);
    std::string error;
    ASSERT_TRUE(CPUExecutable::compile(*module, name, error)) << error;
  }
  EXPECT_EQ(cpuCompileCacheStats().misses, 66u);
  EXPECT_EQ(cpuCompileCacheStats().entries, 64u);
  // g65 is still there, g0 is not.
  for (const char *name : {"g65", "g0"}) {
    std::string text = std::string("func.func @") + name +
                       "(%x: tensor<?xi32>) -> tensor<?xi32> {\n"
                       "  return %x : tensor<?xi32>\n}\n";
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, ctx.get());
    std::string error;
    ASSERT_TRUE(CPUExecutable::compile(*module, name, error)) << error;
  }
  EXPECT_EQ(cpuCompileCacheStats().hits, 1u);
  EXPECT_EQ(cpuCompileCacheStats().misses, 67u);
}

} // namespace
