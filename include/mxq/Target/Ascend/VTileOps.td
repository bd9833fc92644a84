//===- VTileOps.td - vtile operations ----------------------*- tablegen -*-===//
//
// The kernel structure (cores, UB buffers), DMA, the vector instructions,
// the control register and the pipes' flags of the vtile dialect.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_TARGET_ASCEND_VTILE_OPS_TD
#define MXQ_TARGET_ASCEND_VTILE_OPS_TD

include "mxq/Target/Ascend/VTileDialect.td"
include "mxq/Target/Ascend/VTileEnums.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Kernel structure and UB buffers
//===----------------------------------------------------------------------===//

def VTile_CoreIdOp : VTile_Op<"core_id", [Pure]> {
  let summary = "the index of the core running the kernel";
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def VTile_CoreNumOp : VTile_Op<"core_num", [Pure]> {
  let summary = "the number of cores the kernel runs on";
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def VTile_UBBufferOp : VTile_Op<"ub_buffer", [Pure]> {
  let summary = "a buffer of the core's unified buffer, by its byte address";
  let description = [{
    Declares `bytes` bytes of UB at byte address `offset` and returns that
    address. The offset must be 32-byte aligned and the buffer must fit the
    chip's UB; two buffers of one kernel may not overlap.

    ```mlir
    %in = vtile.ub_buffer {offset = 0 : i64, bytes = 32768 : i64}
    ```
  }];
  let arguments = (ins I64Attr:$offset, I64Attr:$bytes);
  let results = (outs Index:$address);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// DMA
//===----------------------------------------------------------------------===//

def VTile_CopyGmToUbOp : VTile_Op<"copy_gm_to_ub"> {
  let summary = "DataCopyPad from GM to UB (pipe mte2)";
  let description = [{
    `block_count` bursts of `block_len` bytes. Burst `i` reads GM at byte
    `gm_offset + i * (block_len + src_stride)` (`src_stride` in bytes, the
    gap between bursts) and writes UB at `ub + i * (ceil32(block_len) +
    32 * dst_stride)` (`dst_stride` in 32-byte blocks). Each burst is padded
    on the right to 32 bytes in UB with `pad_value` (one element of the GM
    element type, repeated) or, without it, with copies of the burst's first
    element (the hardware's dummy padding). `block_count` is at most 4095 and
    `block_len` at most 2,097,151; either being 0 makes the copy a no-op.
  }];
  let arguments = (ins Index:$ub, AnyMemRef:$gm, Index:$gm_offset,
                   Index:$block_count, Index:$block_len, Index:$src_stride,
                   Index:$dst_stride, OptionalAttr<I64Attr>:$pad_value);
  let assemblyFormat = [{
    $gm `[` $gm_offset `]` `to` $ub `bursts` $block_count `x` $block_len
    `strides` `(` $src_stride `,` $dst_stride `)` attr-dict `:` type($gm)
  }];
  let hasVerifier = 1;
}

def VTile_CopyUbToGmOp : VTile_Op<"copy_ub_to_gm"> {
  let summary = "DataCopyPad from UB to GM (pipe mte3)";
  let description = [{
    `block_count` bursts of `block_len` bytes. Burst `i` reads UB at
    `ub + i * (ceil32(block_len) + 32 * src_stride)` (`src_stride` in 32-byte
    blocks) and writes exactly `block_len` bytes of GM at
    `gm_offset + i * (block_len + dst_stride)` (`dst_stride` in bytes).
  }];
  let arguments = (ins AnyMemRef:$gm, Index:$gm_offset, Index:$ub,
                   Index:$block_count, Index:$block_len, Index:$src_stride,
                   Index:$dst_stride);
  let assemblyFormat = [{
    $ub `to` $gm `[` $gm_offset `]` `bursts` $block_count `x` $block_len
    `strides` `(` $src_stride `,` $dst_stride `)` attr-dict `:` type($gm)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Vector instructions (pipe v)
//===----------------------------------------------------------------------===//

// Every vector instruction runs `repeat` repeats (at most 255). A repeat has
// 2048 / (widest operand's bits) lanes; lane l of operand o lies in its
// 32-byte block l / (256 / bits(o)) at the position l % (256 / bits(o)).
// Block b of repeat r of an operand starts at
//   address + 32 * (r * repeat_stride + b * block_stride),
// the strides defaulting to contiguous (block 1, repeat = blocks per repeat).
// `mask` (default: every lane) is the number of leading lanes of each
// repeat that are computed; the others are left alone.
class VTile_VectorOp<string mnemonic, list<Trait> traits = []>
    : VTile_Op<mnemonic, traits>;

def VTile_VBinaryOp : VTile_VectorOp<"vbinary"> {
  let summary = "a lane-wise binary operation on two UB operands";
  let arguments = (ins VTile_BinaryKindAttr:$kind, Index:$dst, Index:$lhs,
                   Index:$rhs, Index:$repeat, TypeAttr:$type,
                   OptionalAttr<I64Attr>:$mask,
                   OptionalAttr<DenseI64ArrayAttr>:$block_strides,
                   OptionalAttr<DenseI64ArrayAttr>:$repeat_strides);
  let assemblyFormat = [{
    $kind $dst `,` $lhs `,` $rhs `repeat` $repeat attr-dict `:` $type
  }];
  let hasVerifier = 1;
}

def VTile_VScalarOp : VTile_VectorOp<"vscalar"> {
  let summary = "a lane-wise binary operation with a scalar (adds, muls, ...)";
  let description = [{
    `dst = kind(src, scalar)` in every lane (`adds`, `muls`, `maxs`, `ands`,
    `shrs`... of the vendor API). `scalar` is an integer or float attribute
    of the lane type's value.
  }];
  let arguments = (ins VTile_BinaryKindAttr:$kind, Index:$dst, Index:$src,
                   Index:$repeat, TypeAttr:$type, AnyAttr:$scalar,
                   OptionalAttr<I64Attr>:$mask,
                   OptionalAttr<DenseI64ArrayAttr>:$block_strides,
                   OptionalAttr<DenseI64ArrayAttr>:$repeat_strides);
  let assemblyFormat = [{
    $kind $dst `,` $src `,` $scalar `repeat` $repeat attr-dict `:` $type
  }];
  let hasVerifier = 1;
}

def VTile_VUnaryOp : VTile_VectorOp<"vunary"> {
  let summary = "a lane-wise unary operation (abs, not, copy)";
  let arguments = (ins VTile_UnaryKindAttr:$kind, Index:$dst, Index:$src,
                   Index:$repeat, TypeAttr:$type, OptionalAttr<I64Attr>:$mask,
                   OptionalAttr<DenseI64ArrayAttr>:$block_strides,
                   OptionalAttr<DenseI64ArrayAttr>:$repeat_strides);
  let assemblyFormat = [{
    $kind $dst `,` $src `repeat` $repeat attr-dict `:` $type
  }];
  let hasVerifier = 1;
}

def VTile_VDupOp : VTile_VectorOp<"vdup"> {
  let summary = "fills the lanes of a UB operand with a scalar (Duplicate)";
  let arguments = (ins Index:$dst, Index:$repeat, TypeAttr:$type,
                   AnyAttr:$scalar, OptionalAttr<I64Attr>:$mask,
                   OptionalAttr<DenseI64ArrayAttr>:$block_strides,
                   OptionalAttr<DenseI64ArrayAttr>:$repeat_strides);
  let assemblyFormat = "$dst `,` $scalar `repeat` $repeat attr-dict `:` $type";
  let hasVerifier = 1;
}

def VTile_VCmpsOp : VTile_VectorOp<"vcmps"> {
  let summary = "compares every lane with a scalar into a lane mask";
  let description = [{
    Writes one bit per lane (lane `l` of repeat `r` is bit `l % 8` of byte
    `dst + r * lanes / 8 + l / 8`); masked-off lanes write 0. Integer
    lanes compare unsigned for `ui` types and signed otherwise; float lanes
    compare ordered (a NaN lane compares false except under `ne`).
  }];
  let arguments = (ins VTile_CmpPredicateAttr:$predicate, Index:$dst,
                   Index:$src, Index:$repeat, TypeAttr:$type, AnyAttr:$scalar,
                   OptionalAttr<I64Attr>:$mask,
                   OptionalAttr<DenseI64ArrayAttr>:$block_strides,
                   OptionalAttr<DenseI64ArrayAttr>:$repeat_strides);
  let assemblyFormat = [{
    $predicate $dst `,` $src `,` $scalar `repeat` $repeat attr-dict `:` $type
  }];
  let hasVerifier = 1;
}

def VTile_VCmpOp : VTile_VectorOp<"vcmp"> {
  let summary = "compares two UB operands lane by lane into a lane mask";
  let description = [{
    `vtile.vcmps` with a second operand for the scalar (the vendor's
    `Compare`): bit `l` of the mask is `pred(lhs[l], rhs[l])`, written as
    `vtile.vcmps` writes it, with the same signedness and NaN rules.
  }];
  let arguments = (ins VTile_CmpPredicateAttr:$predicate, Index:$dst,
                   Index:$lhs, Index:$rhs, Index:$repeat, TypeAttr:$type,
                   OptionalAttr<I64Attr>:$mask);
  let assemblyFormat = [{
    $predicate $dst `,` $lhs `,` $rhs `repeat` $repeat attr-dict `:` $type
  }];
  let hasVerifier = 1;
}
def VTile_VSelOp : VTile_VectorOp<"vsel"> {
  let summary = "lane-wise select by a lane mask: dst = mask ? lhs : rhs";
  let description = [{
    `sel_mask` holds one bit per lane, as `vtile.vcmps` writes it.
  }];
  let arguments = (ins Index:$dst, Index:$sel_mask, Index:$lhs, Index:$rhs,
                   Index:$repeat, TypeAttr:$type,
                   OptionalAttr<I64Attr>:$mask,
                   OptionalAttr<DenseI64ArrayAttr>:$block_strides,
                   OptionalAttr<DenseI64ArrayAttr>:$repeat_strides);
  let assemblyFormat = [{
    $dst `,` $sel_mask `,` $lhs `,` $rhs `repeat` $repeat attr-dict `:` $type
  }];
  let hasVerifier = 1;
}

def VTile_VCastOp : VTile_VectorOp<"vcast"> {
  let summary = "converts every lane to another type (Cast)";
  let description = [{
    Float to narrower float rounds with `round` (`none` is `rint` where the
    conversion is lossy) and, with `sat`, saturates an overflow or infinity
    to the largest finite magnitude; without it an overflow gives the
    format's infinity, or NaN where it has none. A NaN becomes the
    target format's NaN, or +0 where it has none (the bf16 to fp4 cast).
    Integer to integer truncates or extends (sign by the source type).
    Widening float casts and decodes of fp8/fp4 codes are exact. FP4 lanes
    are packed two per byte, the even lane in the low nibble. Which casts a
    chip has is in mxq/Target/Ascend/Chip.h.
  }];
  let arguments = (ins Index:$dst, Index:$src, Index:$repeat,
                   TypeAttr:$src_type, TypeAttr:$dst_type,
                   VTile_RoundModeAttr:$round, UnitAttr:$sat,
                   OptionalAttr<I64Attr>:$mask,
                   OptionalAttr<DenseI64ArrayAttr>:$block_strides,
                   OptionalAttr<DenseI64ArrayAttr>:$repeat_strides);
  let assemblyFormat = [{
    $dst `,` $src `repeat` $repeat $round attr-dict `:` $src_type `to` $dst_type
  }];
  let hasVerifier = 1;
}

def VTile_VReduceGroupOp : VTile_VectorOp<"vreduce_group"> {
  let summary = "reduces each group of consecutive lanes to one value";
  let description = [{
    Reads `repeat` contiguous repeats of `src` and reduces each `group`
    consecutive lanes (a whole number of 32-byte blocks) to one value,
    written contiguously from `dst` (ReduceDataBlock for one block, the
    per-group maximum `vcgmax` for more). Max and min of integer lanes follow
    the type's signedness; of float lanes they propagate NaN.
  }];
  let arguments = (ins VTile_ReduceKindAttr:$kind, Index:$dst, Index:$src,
                   Index:$repeat, TypeAttr:$type, I64Attr:$group);
  let assemblyFormat = [{
    $kind $dst `,` $src `repeat` $repeat attr-dict `:` $type
  }];
  let hasVerifier = 1;
}

def VTile_VBroadcastGroupOp : VTile_VectorOp<"vbrc_group"> {
  let summary = "broadcasts each value to a group of consecutive lanes";
  let description = [{
    Writes `repeat` contiguous repeats of `dst`, lane `l` taking element
    `l / group` of `src` (counted from the first repeat): the inverse of
    `vreduce_group`, the E2B load of the 950 (`DIST_E2B`) for one block.
  }];
  let arguments = (ins Index:$dst, Index:$src, Index:$repeat, TypeAttr:$type,
                   I64Attr:$group);
  let assemblyFormat = "$dst `,` $src `repeat` $repeat attr-dict `:` $type";
  let hasVerifier = 1;
}

def VTile_VIndexOp : VTile_VectorOp<"vindex"> {
  let summary = "fills the lanes with consecutive integers (CreateVecIndex)";
  let description = [{
    Writes `repeat` contiguous repeats of `dst`, lane `l` of repeat `r`
    taking `first + r * lanes + l` (wrapping at the lane width): the
    vendor's `CreateVecIndex`. Integer lanes of 16 or 32 bits.
    ```mlir
    vtile.vindex %idx, 0 repeat %c4 : ui32
    ```
  }];
  let arguments = (ins Index:$dst, Index:$repeat, TypeAttr:$type,
                   I64Attr:$first);
  let assemblyFormat = "$dst `,` $first `repeat` $repeat attr-dict `:` $type";
  let hasVerifier = 1;
}
def VTile_VTransposeOp : VTile_VectorOp<"vtranspose"> {
  let summary = "transposes a matrix of lanes (TransDataTo5HD)";
  let description = [{
    Reads the `rows` x `cols` matrix of `type` lanes at `src` (row `r`
    starting `src_stride` lanes after row `r - 1`) and writes its transpose
    at `dst` (row `c` holds column `c`, `dst_stride` lanes apart):
    `dst[c * dst_stride + r] = src[r * src_stride + c]`. Modelled on the
    vendor's `TransDataTo5HD`: each repeat moves 256 bytes, a square block
    of 8 x 8 32-bit or 16 x 16 16-bit lanes, so `rows` and `cols` are
    multiples of that block, both strides give rows of whole 32-byte
    blocks, and `rows * cols` lanes take at most the chip's repeat limit.
    ```mlir
    vtile.vtranspose %xt, %x {rows = 32 : i64, cols = 256 : i64,
                              src_stride = 256 : i64, dst_stride = 32 : i64} : f32
    ```
  }];
  let arguments = (ins Index:$dst, Index:$src, TypeAttr:$type, I64Attr:$rows,
                   I64Attr:$cols, I64Attr:$src_stride, I64Attr:$dst_stride);
  let assemblyFormat = "$dst `,` $src attr-dict `:` $type";
  let hasVerifier = 1;
}
def VTile_VGatherOp : VTile_VectorOp<"vgather"> {
  let summary = "gathers 32-bit lanes from byte offsets (Gather)";
  let description = [{
    Writes `repeat` contiguous repeats of `dst` (64 lanes of 32 bits
    each): lane `i` takes the 4 bytes at UB address `src + offsets[i]`,
    `offsets` being `ui32` lanes of byte offsets (the vendor's `Gather`
    with its `srcOffsetLocal` and `srcBaseAddr`). Every gathered address
    must be 4-byte aligned and inside the UB (a run-time error otherwise).
    The model moves 32-bit lanes only.
    ```mlir
    vtile.vgather %dst, %src, %offsets repeat %c8 : ui32
    ```
  }];
  let arguments = (ins Index:$dst, Index:$src, Index:$offsets, Index:$repeat,
                   TypeAttr:$type, OptionalAttr<I64Attr>:$mask);
  let assemblyFormat = [{
    $dst `,` $src `,` $offsets `repeat` $repeat attr-dict `:` $type
  }];
  let hasVerifier = 1;
}
//===----------------------------------------------------------------------===//
// Control register
//===----------------------------------------------------------------------===//

def VTile_SetCtrlOp : VTile_Op<"set_ctrl"> {
  let summary = "sets a bit of the core's control register (SetCtrlSpr)";
  let description = [{
    Scalar unit. Sets bit `bit` of the core's CTRL register to `value`;
    vector instructions issued after it see the new value. The model has
    bit 50 (ascend-model.md §3.3): with it set, a saturating cast from f32
    to f8E4M3FN or f8E5M2 turns a NaN into the format's NaN code (0x7F)
    instead of +0. Every core starts a kernel with the bit clear, as the
    vendor's kernels leave it.
  }];
  let arguments = (ins I64Attr:$bit, BoolAttr:$value);
  let assemblyFormat = "`[` $bit `]` `=` $value attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pipes and flags
//===----------------------------------------------------------------------===//

def VTile_SetFlagOp : VTile_Op<"set_flag"> {
  let summary = "sets flag (src, dst, id) once src's earlier work completes";
  let arguments = (ins VTile_PipeAttr:$src, VTile_PipeAttr:$dst, Index:$id);
  let assemblyFormat = "`[` $src `,` $dst `,` $id `]` attr-dict";
  let hasVerifier = 1;
}

def VTile_WaitFlagOp : VTile_Op<"wait_flag"> {
  let summary = "holds pipe dst until flag (src, dst, id) is set, then clears it";
  let arguments = (ins VTile_PipeAttr:$src, VTile_PipeAttr:$dst, Index:$id);
  let assemblyFormat = "`[` $src `,` $dst `,` $id `]` attr-dict";
  let hasVerifier = 1;
}

def VTile_PipeBarrierOp : VTile_Op<"pipe_barrier"> {
  let summary = "holds a pipe until its earlier instructions complete";
  let arguments = (ins VTile_PipeAttr:$pipe);
  let assemblyFormat = "$pipe attr-dict";
}

#endif // MXQ_TARGET_ASCEND_VTILE_OPS_TD
