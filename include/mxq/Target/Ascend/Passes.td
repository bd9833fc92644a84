//===- Passes.td - passes of the Ascend-like target --------*- tablegen -*-===//
#ifndef MXQ_TARGET_ASCEND_PASSES_TD
#define MXQ_TARGET_ASCEND_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMXQToVTile : Pass<"convert-mxq-to-vtile", "::mlir::ModuleOp"> {
  let summary = "Lower mxq functions to vtile kernels for an Ascend-like core";
  let description = [{
    Rewrites every function of static shapes whose body is one mxq op on
    its arguments into a `vtile.kernel`: `mxq.quantize` (along any axis,
    every scale algorithm, Inf policy, rounding, NaN element, underflow,
    product and layout: linear, pairs, swizzle_32_4_4), `mxq.dual_quantize`
    (one kernel, one read), `mxq.two_level_quantize`, `mxq.dequantize`,
    `mxq.fake_quant`, `mxq.fake_quant_grad` and `mxq.convert_scale_layout`.
    (mxq-run lowers a function of several ops, such as CANN's dual-axis
    quantize, as one kernel per op.) The kernel takes its inputs and then
    its results as GM memrefs (`#vtile.space<gm>`) and returns nothing. The
    work (rows x column slices, or block-rows x columns along a non-last
    axis) is split over the chip's cores; each core moves UB tiles, sized
    from the chip's UB, through DMA in, the vector recipe of
    docs/Rationale.md ("The Ascend-like target") and DMA out, double
    buffered where the UB holds the smallest tile twice, single buffered
    where it holds it once (flags MTE2->V, V->MTE2, V->MTE3 and MTE3->V
    placed by the pass). On `a2`, which has no fp8/fp4 casts, codes are encoded and
    decoded by integer code. The module gets `vtile.chip`.

    Long blocks along a non-last axis are read in chunks (the amax over
    the chunks, then the codes); FP4 along a non-last axis of a tensor
    with an odd last dimension is tiled a segment of the last dimension at
    a time.

    The pass takes what it can state exactly and says so for the rest: a
    function it cannot lower is an error naming the reason (dynamic shapes,
    NVFP4 and blockwise FP8 scales, a tile that does not fit
    the chip's UB, which swizzled last-axis scales with long blocks still
    need, tile options a family does not take). The rewrite is available as
    `mxq::vtile::lowerFunctionToVTile`.
  }];
  let options = [
    Option<"chip", "chip", "std::string", "\"950pr\"",
           "the chip: a2, 950pr or 950dt, fields overridable "
           "(\"950pr,ub-bytes=131072,cores=8\")">,
    Option<"tileRows", "tile-rows", "int64_t", "0",
           "rows of a UB tile (0: as many as the UB holds)">,
    Option<"tileCols", "tile-cols", "int64_t", "0",
           "columns of a UB tile (0: chosen): a multiple of 8 blocks; for a last-axis mxq.quantize also any multiple of 64 of at most 64 whole blocks">,
    Option<"doubleBuffer", "double-buffer", "bool", "true",
           "two buffers per stage, so that DMA and vector work overlap, where the UB holds the smallest tile twice (one otherwise)">,
    ListOption<"tileShape", "tile-shape", "int64_t",
               "PyPTO's set_vec_tile_shapes for mxq.quantize: one tile "
               "dimension per input dimension (the tile contract's rules "
               "apply)">,
    Option<"performanceMode", "performance-mode", "std::string", "\"\"",
           "PyPTO quant_mx's performance mode, true or false (given, or "
           "tile-shape given: the tile contract's rules apply, performance "
           "mode by default)">
  ];
  let dependentDialects = ["::mxq::vtile::VTileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // MXQ_TARGET_ASCEND_PASSES_TD
