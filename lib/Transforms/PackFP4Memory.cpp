//===- PackFP4Memory.cpp - FP4 codes two per byte in memory ---------------===//
//
// mxq's memory form of FP4 (f4E2M1FN) codes, the same on every target and
// in the runtime: packed two per byte along the last axis, element 2i in the
// low nibble and 2i+1 in the high one (PyTorch's float4_e2m1fn_x2, CUTLASS,
// the seed systems). Each row (all indices but the last fixed) starts on a
// byte: a row of K codes takes ceil(K / 2) bytes, and an odd K leaves the
// high nibble of its last byte zero.
//
// A memref of f4E2M1FN keeps its descriptor (allocated and aligned
// pointers, offset 0, the logical sizes; the strides are those of the
// identity layout and are not used): only the bytes it points to are
// packed. This pass makes that explicit after bufferization. Every such
// memref becomes a memref of i8 of the same (logical) shape, which LLVM
// passes identically; each access addresses the bytes through a 1-d view
// (memref.reinterpret_cast) of ceil(K / 2) bytes a row:
//
//   memref.load    -> a byte load, a shift and a mask;
//   memref.store   -> a read-modify-write of the byte (the byte alone where
//                     the code has no partner: the padding nibble is 0);
//   vector transfer along the last axis, at an even column, of an even
//                  number of codes -> one vector of packed bytes (the
//                  codes' even and odd lanes interleaved as nibbles);
//                  otherwise code by code;
//   memref.alloc   -> an allocation of the packed bytes, viewed with the
//                     logical shape;
//   memref.copy    -> a copy of the packed bytes.
//
// A store rewrites a whole byte, so code that stores FP4 codes in parallel
// must give each thread whole bytes: the lowerings do (blocks along the last
// axis are even; along another axis a thread takes two columns).
// A view of FP4 codes other than the whole buffer (a subview, a strided
// layout) is an error naming the op.
//
//===----------------------------------------------------------------------===//
#include "mxq/Numerics/Numerics.h"
#include "mxq/Transforms/Passes.h"
#include "mxq/Transforms/KnownMultiple.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Transforms/Transforms.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mxq {
#define GEN_PASS_DEF_MXQPACKFP4MEMORY
#include "mxq/Transforms/Passes.h.inc"
} // namespace mxq

using namespace mlir;

namespace {

bool isFP4(Type t) { return isa<Float4E2M1FNType>(t); }

bool isFP4MemRef(Type t) {
  auto m = dyn_cast<MemRefType>(t);
  return m && isFP4(m.getElementType());
}

Value idx(OpBuilder &b, Location l, int64_t v) {
  return arith::ConstantIndexOp::create(b, l, v);
}

/// The i8 constant `v`, or a vector of it for a vector type `t`.
Value splatI8(OpBuilder &b, Location l, Type t, int64_t v) {
  TypedAttr byte = b.getI8IntegerAttr(v);
  if (auto vt = dyn_cast<VectorType>(t))
    return arith::ConstantOp::create(b, l, DenseElementsAttr::get(vt, byte));
  return arith::ConstantOp::create(b, l, byte);
}

/// The logical sizes of the (converted) memref `m`.
SmallVector<Value> sizesOf(OpBuilder &b, Location l, Value m) {
  auto type = cast<MemRefType>(m.getType());
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(type.isDynamicDim(d)
                        ? memref::DimOp::create(b, l, m, d).getResult()
                        : idx(b, l, type.getDimSize(d)));
  return sizes;
}

/// Where the codes of a packed memref lie: its bytes as a memref of the
/// same rank whose last dimension is the ceil(K / 2) bytes of a row (row
/// pitch ceil(K / 2), a dynamic stride), and the logical sizes. The view is
/// made where the buffer is defined (outside any loop or kernel), so that a
/// target can reason about its strides once (mxq-align-vector-accesses
/// versions a kernel on them).
struct Packed {
  Value bytes;
  SmallVector<Value> sizes;

  /// The byte indices of the code at `indices`, and the code's index along
  /// the last axis (0 for rank 0).
  std::pair<SmallVector<Value>, Value> locate(OpBuilder &b, Location l,
                                              ValueRange indices) const {
    if (indices.empty())
      return {{idx(b, l, 0)}, idx(b, l, 0)};
    SmallVector<Value> at(indices.begin(), indices.end());
    Value col = indices.back();
    at.back() = arith::ShRUIOp::create(b, l, col, idx(b, l, 1));
    return {at, col};
  }
};

/// ceil(K / 2) for the last logical size K.
Value pitchOf(OpBuilder &b, Location l, Value last) {
  return arith::ShRUIOp::create(
      b, l, arith::AddIOp::create(b, l, last, idx(b, l, 1)), idx(b, l, 1));
}

/// Total packed bytes of a memref of logical `sizes`.
Value packedBytes(OpBuilder &b, Location l, ArrayRef<Value> sizes) {
  if (sizes.empty())
    return idx(b, l, 1);
  Value total = pitchOf(b, l, sizes.back());
  for (size_t d = 0; d + 1 < sizes.size(); ++d)
    total = arith::MulIOp::create(b, l, total, sizes[d]);
  return total;
}

Packed packedOf(OpBuilder &b, Location l, Value converted) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfterValue(converted);
  Packed p;
  p.sizes = sizesOf(b, l, converted);
  auto type = cast<MemRefType>(converted.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> sizes, strides(std::max<int64_t>(rank, 1));
  if (rank == 0) {
    sizes.push_back(b.getIndexAttr(1));
    strides[0] = b.getIndexAttr(1);
  } else {
    for (int64_t d = 0; d + 1 < rank; ++d)
      sizes.push_back(p.sizes[d]);
    Value pitch = pitchOf(b, l, p.sizes.back());
    sizes.push_back(pitch);
    Value stride = pitch;
    strides[rank - 1] = b.getIndexAttr(1);
    for (int64_t d = rank - 2; d >= 0; --d) {
      strides[d] = stride;
      stride = arith::MulIOp::create(b, l, stride, p.sizes[d]);
    }
  }
  int64_t viewRank = std::max<int64_t>(rank, 1);
  // Static where the buffer's shape is (a target proves alignments from
  // static strides without versioning its kernels).
  SmallVector<int64_t> viewSizes(viewRank, ShapedType::kDynamic);
  SmallVector<int64_t> viewStrides(viewRank, ShapedType::kDynamic);
  viewStrides.back() = 1;
  if (type.hasStaticShape()) {
    int64_t stride = 1;
    for (int64_t d = viewRank - 1; d >= 0; --d) {
      viewSizes[d] = rank == 0       ? 1
                     : d == rank - 1 ? (type.getDimSize(d) + 1) / 2
                                     : type.getDimSize(d);
      viewStrides[d] = stride;
      stride *= viewSizes[d];
    }
  }
  auto view =
      MemRefType::get(viewSizes, b.getI8Type(),
                      StridedLayoutAttr::get(b.getContext(), 0, viewStrides),
                      type.getMemorySpace());
  if (type.hasStaticShape()) {
    p.bytes = memref::ReinterpretCastOp::create(b, l, view, converted, 0,
                                                viewSizes, viewStrides);
    return p;
  }
  SmallVector<Value> dynSizes;
  for (OpFoldResult s : sizes)
    dynSizes.push_back(getValueOrCreateConstantIndexOp(b, l, s));
  SmallVector<OpFoldResult> sizeOfr(dynSizes.begin(), dynSizes.end());
  SmallVector<OpFoldResult> strideOfr;
  for (int64_t d = 0; d < viewRank; ++d)
    strideOfr.push_back(
        d == viewRank - 1
            ? OpFoldResult(b.getIndexAttr(1))
            : OpFoldResult(getValueOrCreateConstantIndexOp(b, l, strides[d])));
  p.bytes = memref::ReinterpretCastOp::create(b, l, view, converted,
                                              OpFoldResult(b.getIndexAttr(0)),
                                              sizeOfr, strideOfr);
  return p;
}

/// The code bits (0..15) of `v` (f4E2M1FN, scalar or vector) as i8: through
/// the truncation that made it where there is one (no value of a sub-byte
/// type is left for a target to legalise).
Value codeBytes(OpBuilder &b, Location l, Value v) {
  Type i8 = b.getI8Type();
  auto shaped = [&](Type t, Type elt) -> Type {
    if (auto vt = dyn_cast<VectorType>(t))
      return vt.clone(elt);
    return elt;
  };
  Type byteType = shaped(v.getType(), i8);
  Value wide;
  if (auto cast = v.getDefiningOp<arith::BitcastOp>())
    if (auto trunc = cast.getIn().getDefiningOp<arith::TruncIOp>())
      if (getElementTypeOrSelf(trunc.getIn().getType())
              .getIntOrFloatBitWidth() >= 8)
        wide = trunc.getIn();
  Value bytes;
  if (wide) {
    bytes = getElementTypeOrSelf(wide.getType()).getIntOrFloatBitWidth() == 8
                ? wide
                : arith::TruncIOp::create(b, l, byteType, wide).getResult();
  } else {
    Value bits = arith::BitcastOp::create(
        b, l, shaped(v.getType(), b.getIntegerType(4)), v);
    return arith::ExtUIOp::create(b, l, byteType, bits);
  }
  return arith::AndIOp::create(b, l, bytes, splatI8(b, l, byteType, 0xF));
}

/// The f4E2M1FN value of code bits (i8, 0..15; scalar or vector).
Value fromCodeBytes(OpBuilder &b, Location l, Value bytes) {
  Type t = bytes.getType();
  auto shaped = [&](Type elt) -> Type {
    if (auto vt = dyn_cast<VectorType>(t))
      return vt.clone(elt);
    return elt;
  };
  Value narrow =
      arith::TruncIOp::create(b, l, shaped(b.getIntegerType(4)), bytes);
  return arith::BitcastOp::create(b, l, shaped(b.getType<Float4E2M1FNType>()),
                                  narrow);
}

Value i8c(OpBuilder &b, Location l, int64_t v) {
  return arith::ConstantIntOp::create(b, l, v, 8);
}

/// Loads the code at `indices`.
Value loadCode(OpBuilder &b, Location l, const Packed &p, ValueRange indices) {
  auto [byteAt, col] = p.locate(b, l, indices);
  Value byte = memref::LoadOp::create(b, l, p.bytes, byteAt);
  Value odd = arith::IndexCastUIOp::create(
      b, l, b.getI8Type(), arith::AndIOp::create(b, l, col, idx(b, l, 1)));
  Value shift = arith::MulIOp::create(b, l, odd, i8c(b, l, 4));
  Value code = arith::AndIOp::create(
      b, l, arith::ShRUIOp::create(b, l, byte, shift), i8c(b, l, 0xF));
  return fromCodeBytes(b, l, code);
}

/// Stores the code bits `code` (i8) at `indices`: the byte's other nibble
/// is kept where it holds a code, and is 0 where the row has no code there.
void storeCode(OpBuilder &b, Location l, const Packed &p, Value code,
               ValueRange indices) {
  auto [byteAt, col] = p.locate(b, l, indices);
  Value odd = arith::AndIOp::create(b, l, col, idx(b, l, 1));
  Value shift = arith::MulIOp::create(
      b, l, arith::IndexCastUIOp::create(b, l, b.getI8Type(), odd),
      i8c(b, l, 4));
  Value keep;
  if (indices.empty()) {
    keep = i8c(b, l, 0);
  } else {
    Value partner = arith::XOrIOp::create(b, l, col, idx(b, l, 1));
    Value hasPartner = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult,
                                             partner, p.sizes.back());
    Value other = arith::SelectOp::create(
        b, l,
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, odd,
                              idx(b, l, 0)),
        i8c(b, l, 0xF0), i8c(b, l, 0x0F));
    keep = arith::SelectOp::create(b, l, hasPartner, other, i8c(b, l, 0));
  }
  Value old = memref::LoadOp::create(b, l, p.bytes, byteAt);
  // One statement each: the order of ops built as arguments of one call
  // would differ between compilers (GCC and Clang evaluate arguments in
  // opposite orders), and with it the IR the tests read.
  Value shifted = arith::ShLIOp::create(b, l, code, shift);
  Value kept = arith::AndIOp::create(b, l, old, keep);
  Value byte = arith::OrIOp::create(b, l, kept, shifted);
  memref::StoreOp::create(b, l, byte, p.bytes, byteAt);
}

/// Codes bits (vector<2n x i8>) as n packed bytes.
Value packPairs(OpBuilder &b, Location l, Value codes) {
  int64_t n = cast<VectorType>(codes.getType()).getNumElements();
  SmallVector<int64_t> even, odd;
  for (int64_t i = 0; i < n / 2; ++i) {
    even.push_back(2 * i);
    odd.push_back(2 * i + 1);
  }
  Value lo = vector::ShuffleOp::create(b, l, codes, codes, even);
  Value hi = vector::ShuffleOp::create(b, l, codes, codes, odd);
  auto half = VectorType::get({n / 2}, b.getI8Type());
  Value four = splatI8(b, l, half, 4);
  return arith::OrIOp::create(b, l, lo, arith::ShLIOp::create(b, l, hi, four));
}

/// n packed bytes as code bits (vector<2n x i8>).
Value unpackPairs(OpBuilder &b, Location l, Value bytes) {
  int64_t n = cast<VectorType>(bytes.getType()).getNumElements();
  auto vt = cast<VectorType>(bytes.getType());
  Value four = splatI8(b, l, vt, 4);
  Value mask = splatI8(b, l, vt, 0xF);
  Value lo = arith::AndIOp::create(b, l, bytes, mask);
  Value hi = arith::ShRUIOp::create(b, l, bytes, four);
  SmallVector<int64_t> order;
  for (int64_t i = 0; i < n; ++i) {
    order.push_back(i);
    order.push_back(n + i);
  }
  return vector::ShuffleOp::create(b, l, lo, hi, order);
}

/// A 1-d vector access to a packed memref along dimension `dim` at
/// `indices`: (lanes, in-bounds flag).
struct VectorAccess {
  VectorType type;
  int64_t dim;
  bool inBounds;
};

/// Whether an access of `access` at `indices` can move whole packed bytes:
/// null where it never can (not along the last axis, or an odd number of
/// codes), else the run-time condition (an even first column, and every lane
/// inside the row where the access is not in bounds).
Value wholeBytes(OpBuilder &b, Location l, const Packed &p, ValueRange indices,
                 const VectorAccess &access, bool evenColumn) {
  int64_t n = access.type.getNumElements();
  if (access.dim != int64_t(indices.size()) - 1 || n % 2 != 0)
    return Value();
  Value col = indices.back();
  // Where the column is even by construction (a block's first column), no
  // code-by-code path is made for an odd one.
  Value whole =
      evenColumn
          ? arith::ConstantIntOp::create(b, l, 1, 1).getResult()
          : arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::eq,
                arith::AndIOp::create(b, l, col, idx(b, l, 1)), idx(b, l, 0))
                .getResult();
  if (access.inBounds)
    return whole;
  Value fits = arith::CmpIOp::create(
      b, l, arith::CmpIPredicate::ule,
      arith::AddIOp::create(b, l, col, idx(b, l, n)), p.sizes.back());
  return evenColumn ? fits
                    : arith::AndIOp::create(b, l, whole, fits).getResult();
}

/// How many lanes of `access` from `start` lie inside the axis: all of them
/// where the access is in bounds, otherwise min(n, size - start) (0 past the
/// end).
Value liveLanes(OpBuilder &b, Location l, const Packed &p, Value start,
                const VectorAccess &access) {
  Value n = idx(b, l, access.type.getNumElements());
  if (access.inBounds)
    return n;
  Value size = p.sizes[access.dim];
  Value room = arith::SubIOp::create(
      b, l, arith::MaxUIOp::create(b, l, size, start), start);
  return arith::MinUIOp::create(b, l, room, n);
}

/// The bytes `value` (vector<n x f4E2M1FN>) is a bitcast of
/// (vector<n/2 x i8> through vector<n x i4>: element 2i the low nibble of
/// byte i, as in memory), if it is one.
Value packedSourceOf(Value value) {
  auto cast = value.getDefiningOp<arith::BitcastOp>();
  if (!cast)
    return Value();
  auto bits = cast.getIn().getDefiningOp<vector::BitCastOp>();
  if (!bits)
    return Value();
  auto type = dyn_cast<VectorType>(bits.getSource().getType());
  if (!type || type.getRank() != 1 || !type.getElementType().isInteger(8))
    return Value();
  return bits.getSource();
}

/// Writes `value` (vector<n x f4E2M1FN>) along `access.dim` from
/// `indices`: packed bytes where the codes start on a byte of a row and
/// fill whole bytes, otherwise code by code (past the end only where in
/// bounds).
void writeVector(OpBuilder &b, Location l, const Packed &p, Value value,
                 ValueRange indices, const VectorAccess &access,
                 bool evenColumn) {
  // Codes that were packed already (a bitcast of bytes, element 2i in the
  // low nibble of byte i: what a quantize of bf16 into FP4 makes) are
  // written as those bytes, and read lane by lane from them.
  Value packed = packedSourceOf(value);
  Value codes = packed ? Value() : codeBytes(b, l, value);
  auto codeAt = [&](OpBuilder &cb, Location cl, Value k) -> Value {
    return packed ? mxq::numerics::packedFP4Code(cb, cl, packed, k)
                  : vector::ExtractOp::create(cb, cl, codes,
                                              ArrayRef<OpFoldResult>{k})
                        .getResult();
  };
  // Code by code in a loop (not unrolled: this is the rare path, and n
  // unrolled read-modify-writes cost every target compile time).
  auto byLanes = [&](OpBuilder &eb, Location el) {
    Value start = indices[access.dim];
    Value count = liveLanes(eb, el, p, start, access);
    scf::ForOp::create(
        eb, el, idx(eb, el, 0), count, idx(eb, el, 1), ValueRange{},
        [&](OpBuilder &lb, Location ll, Value k, ValueRange) {
          SmallVector<Value> at(indices);
          at[access.dim] = arith::AddIOp::create(lb, ll, start, k);
          storeCode(lb, ll, p, codeAt(lb, ll, k), at);
          scf::YieldOp::create(lb, ll);
        });
  };
  Value whole = wholeBytes(b, l, p, indices, access, evenColumn);
  if (!whole) {
    byLanes(b, l);
    return;
  }
  auto writeWhole = [&](OpBuilder &tb, Location tl) {
    auto [byteAt, c] = p.locate(tb, tl, indices);
    (void)c;
    // A transfer, so that a target proves its alignment as any other.
    vector::TransferWriteOp::create(tb, tl,
                                    packed ? packed : packPairs(tb, tl, codes),
                                    p.bytes, byteAt, ArrayRef<bool>{true});
  };
  if (matchPattern(whole, m_One())) {
    writeWhole(b, l);
    return;
  }
  scf::IfOp::create(
      b, l, whole,
      [&](OpBuilder &tb, Location tl) {
        writeWhole(tb, tl);
        scf::YieldOp::create(tb, tl);
      },
      [&](OpBuilder &eb, Location el) {
        byLanes(eb, el);
        scf::YieldOp::create(eb, el);
      });
}

/// Reads a vector<n x f4E2M1FN> along `access.dim` from `indices` (lanes
/// past the end read as `pad` where not in bounds).
Value readVector(OpBuilder &b, Location l, const Packed &p, ValueRange indices,
                 const VectorAccess &access, Value pad, bool evenColumn) {
  int64_t n = access.type.getNumElements();
  auto bytesType = VectorType::get({n}, b.getI8Type());
  Value padByte = pad ? codeBytes(b, l, pad) : i8c(b, l, 0);
  // Code by code in a loop, as writeVector's; lanes past the end of the
  // axis keep the padding.
  auto byLanes = [&](OpBuilder &eb, Location el) -> Value {
    Value v = vector::BroadcastOp::create(eb, el, bytesType, padByte);
    Value start = indices[access.dim];
    Value count = liveLanes(eb, el, p, start, access);
    auto loop = scf::ForOp::create(
        eb, el, idx(eb, el, 0), count, idx(eb, el, 1), ValueRange{v},
        [&](OpBuilder &lb, Location ll, Value k, ValueRange acc) {
          SmallVector<Value> at(indices);
          at[access.dim] = arith::AddIOp::create(lb, ll, start, k);
          Value c = loadCode(lb, ll, p, at);
          Value bits = arith::ExtUIOp::create(
              lb, ll, lb.getI8Type(),
              arith::BitcastOp::create(lb, ll, lb.getIntegerType(4), c));
          scf::YieldOp::create(
              lb, ll,
              vector::InsertOp::create(lb, ll, bits, acc[0],
                                       ArrayRef<OpFoldResult>{k})
                  .getResult());
        });
    return loop.getResult(0);
  };
  Value bits;
  Value whole = wholeBytes(b, l, p, indices, access, evenColumn);
  auto readWhole = [&](OpBuilder &tb, Location tl) {
    auto [byteAt, c] = p.locate(tb, tl, indices);
    (void)c;
    Value packed = vector::TransferReadOp::create(
        tb, tl, VectorType::get({n / 2}, tb.getI8Type()), p.bytes, byteAt,
        i8c(tb, tl, 0), ArrayRef<bool>{true});
    return unpackPairs(tb, tl, packed);
  };
  if (!whole) {
    bits = byLanes(b, l);
  } else if (matchPattern(whole, m_One())) {
    bits = readWhole(b, l);
  } else {
    auto ifOp = scf::IfOp::create(
        b, l, whole,
        [&](OpBuilder &tb, Location tl) {
          scf::YieldOp::create(tb, tl, readWhole(tb, tl));
        },
        [&](OpBuilder &eb, Location el) {
          scf::YieldOp::create(eb, el, byLanes(eb, el));
        });
    bits = ifOp.getResult(0);
  }
  return fromCodeBytes(b, l, bits);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

struct PackLoad : OpConversionPattern<memref::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(memref::LoadOp op, OpAdaptor a,
                                ConversionPatternRewriter &rw) const override {
    if (!isFP4MemRef(op.getMemRefType()))
      return failure();
    Packed p = packedOf(rw, op.getLoc(), a.getMemref());
    rw.replaceOp(op, loadCode(rw, op.getLoc(), p, a.getIndices()));
    return success();
  }
};

struct PackStore : OpConversionPattern<memref::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(memref::StoreOp op, OpAdaptor a,
                                ConversionPatternRewriter &rw) const override {
    if (!isFP4MemRef(op.getMemRefType()))
      return failure();
    Location l = op.getLoc();
    Packed p = packedOf(rw, l, a.getMemref());
    storeCode(rw, l, p, codeBytes(rw, l, a.getValue()), a.getIndices());
    rw.eraseOp(op);
    return success();
  }
};

/// The dimension a 1-d transfer runs along, if its map is a single result
/// dimension.
std::optional<int64_t> transferDim(AffineMap map) {
  if (map.getNumResults() != 1)
    return std::nullopt;
  auto d = dyn_cast<AffineDimExpr>(map.getResult(0));
  if (!d)
    return std::nullopt;
  return d.getPosition();
}

/// The 1-d vector access `op` makes to an FP4 buffer, if it is one this
/// pass rewrites: a transfer along one dimension without a mask, or a
/// vector.load/store (along the last dimension, in bounds).
std::optional<VectorAccess> accessOf(vector::TransferReadOp op) {
  auto dim = transferDim(op.getPermutationMap());
  if (!dim || op.getVectorType().getRank() != 1 || op.getMask())
    return std::nullopt;
  return VectorAccess{op.getVectorType(), *dim, op.isDimInBounds(0)};
}
std::optional<VectorAccess> accessOf(vector::TransferWriteOp op) {
  auto dim = transferDim(op.getPermutationMap());
  if (!dim || op.getVectorType().getRank() != 1 || op.getMask())
    return std::nullopt;
  return VectorAccess{op.getVectorType(), *dim, op.isDimInBounds(0)};
}
template <typename LoadOrStore>
std::optional<VectorAccess> accessOf(LoadOrStore op) {
  if (op.getVectorType().getRank() != 1)
    return std::nullopt;
  return VectorAccess{op.getVectorType(),
                      int64_t(op.getMemRefType().getRank()) - 1, true};
}

Value paddingOf(vector::TransferReadOp::Adaptor a) { return a.getPadding(); }
Value paddingOf(vector::LoadOp::Adaptor) { return Value(); }

/// A vector transfer, load or store of FP4 codes.
template <typename AccessOp>
struct PackVectorAccess : OpConversionPattern<AccessOp> {
  PackVectorAccess(const TypeConverter &converter, MLIRContext *ctx,
                   const llvm::DenseSet<Operation *> *evenColumns)
      : OpConversionPattern<AccessOp>(converter, ctx),
        evenColumns(evenColumns) {}
  const llvm::DenseSet<Operation *> *evenColumns;
  static constexpr bool kWrite =
      std::is_same_v<AccessOp, vector::TransferWriteOp> ||
      std::is_same_v<AccessOp, vector::StoreOp>;
  LogicalResult matchAndRewrite(AccessOp op, typename AccessOp::Adaptor a,
                                ConversionPatternRewriter &rw) const override {
    if (!isFP4MemRef(op.getBase().getType()))
      return failure();
    std::optional<VectorAccess> access = accessOf(op);
    if (!access)
      return rw.notifyMatchFailure(op, "not a 1-d unmasked access");
    Location l = op.getLoc();
    Packed p = packedOf(rw, l, a.getBase());
    bool even = evenColumns && evenColumns->contains(op);
    if constexpr (kWrite) {
      writeVector(rw, l, p, a.getValueToStore(), a.getIndices(), *access, even);
      rw.eraseOp(op);
    } else {
      rw.replaceOp(op, readVector(rw, l, p, a.getIndices(), *access,
                                  paddingOf(a), even));
    }
    return success();
  }
};

/// An allocation of the packed bytes, viewed with the logical shape (the
/// identity layout's strides, which nothing reads).
template <typename AllocLike>
struct PackAlloc : OpConversionPattern<AllocLike> {
  using OpConversionPattern<AllocLike>::OpConversionPattern;
  using OpAdaptor = typename AllocLike::Adaptor;
  LogicalResult matchAndRewrite(AllocLike op, OpAdaptor a,
                                ConversionPatternRewriter &rw) const override {
    MemRefType type = op.getType();
    if (!isFP4(type.getElementType()))
      return failure();
    Location l = op.getLoc();
    auto converted =
        cast<MemRefType>(this->getTypeConverter()->convertType(type));
    SmallVector<Value> sizes;
    auto dynamic = a.getDynamicSizes().begin();
    for (int64_t d = 0; d < type.getRank(); ++d)
      sizes.push_back(type.isDynamicDim(d) ? *dynamic++
                                           : idx(rw, l, type.getDimSize(d)));
    Value total = packedBytes(rw, l, sizes);
    auto raw = AllocLike::create(
        rw, l,
        MemRefType::get({ShapedType::kDynamic}, rw.getI8Type(),
                        MemRefLayoutAttrInterface(), type.getMemorySpace()),
        ValueRange{total}, op.getAlignmentAttr());
    // The identity layout's sizes and strides, static where the type's are.
    SmallVector<OpFoldResult> mixedSizes, strides(type.getRank());
    for (int64_t d = 0; d < type.getRank(); ++d)
      mixedSizes.push_back(type.isDynamicDim(d) ? OpFoldResult(sizes[d])
                                                : OpFoldResult(rw.getIndexAttr(
                                                      type.getDimSize(d))));
    OpFoldResult stride = rw.getIndexAttr(1);
    for (int64_t d = type.getRank() - 1; d >= 0; --d) {
      strides[d] = stride;
      auto s = getConstantIntValue(stride);
      if (s && !type.isDynamicDim(d))
        stride = rw.getIndexAttr(*s * type.getDimSize(d));
      else
        stride = OpFoldResult(
            arith::MulIOp::create(
                rw, l, getValueOrCreateConstantIndexOp(rw, l, stride), sizes[d])
                .getResult());
    }
    rw.replaceOpWithNewOp<memref::ReinterpretCastOp>(
        op, converted, raw, rw.getIndexAttr(0), mixedSizes, strides);
    return success();
  }
};

struct PackCopy : OpConversionPattern<memref::CopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(memref::CopyOp op, OpAdaptor a,
                                ConversionPatternRewriter &rw) const override {
    if (!isFP4MemRef(op.getSource().getType()))
      return failure();
    Location l = op.getLoc();
    Packed to = packedOf(rw, l, a.getTarget());
    Packed from = packedOf(rw, l, a.getSource());
    memref::CopyOp::create(rw, l, from.bytes, to.bytes);
    rw.eraseOp(op);
    return success();
  }
};

/// Ops that only pass a packed memref on (its sizes, its deallocation, a
/// cast): the same op on the converted memref.
struct PackPassThrough : ConversionPattern {
  PackPassThrough(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rw) const override {
    if (!isa<memref::DimOp, memref::DeallocOp, memref::CastOp,
             memref::ExtractAlignedPointerAsIndexOp,
             memref::ExtractStridedMetadataOp>(op))
      return failure();
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), results)))
      return failure();
    OperationState state(op->getLoc(), op->getName().getStringRef(), operands,
                         results, op->getAttrs());
    Operation *clone = rw.create(state);
    rw.replaceOp(op, clone->getResults());
    return success();
  }
};

/// Whether `view` covers all of its source (zero offsets, unit strides, the
/// source's sizes: equal constants, the source allocation's own size
/// operands or memref.dim of the source), which bufferization makes of a
/// whole tensor inserted into a buffer of dynamic shape. Such a view is the
/// buffer itself; any other view of packed codes is not expressible.
bool isWholeView(memref::SubViewOp view) {
  Value source = view.getSource();
  auto type = cast<MemRefType>(source.getType());
  if (!llvm::all_of(view.getMixedOffsets(), isZeroInteger) ||
      !llvm::all_of(view.getMixedStrides(), isOneInteger))
    return false;
  auto alloc = source.getDefiningOp<memref::AllocOp>();
  for (auto [d, size] : llvm::enumerate(view.getMixedSizes())) {
    if (!type.isDynamicDim(d)) {
      if (getConstantIntValue(size) != type.getDimSize(d))
        return false;
      continue;
    }
    auto v = dyn_cast<Value>(size);
    if (!v)
      return false;
    if (alloc && alloc.getDynamicSizes()[type.getDynamicDimIndex(d)] == v)
      continue;
    auto dim = v.getDefiningOp<memref::DimOp>();
    if (dim && dim.getSource() == source &&
        dim.getConstantIndex() == int64_t(d))
      continue;
    // A size computed otherwise (a tile clamp, min(ceil(n/512)*512, n)):
    // equal if the value bounds prove it.
    FailureOr<bool> equal = ValueBoundsConstraintSet::areEqual(
        ValueBoundsConstraintSet::Variable(v),
        ValueBoundsConstraintSet::Variable(source, int64_t(d)));
    if (succeeded(equal) && *equal)
      continue;
    return false;
  }
  return true;
}

struct PackWholeView : OpConversionPattern<memref::SubViewOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(memref::SubViewOp op, OpAdaptor a,
                                ConversionPatternRewriter &rw) const override {
    if (!isFP4MemRef(op.getType()) || !isWholeView(op))
      return failure();
    rw.replaceOp(op, a.getSource());
    return success();
  }
};

bool supportedOnFP4(Operation *op) {
  return isa<memref::LoadOp, memref::StoreOp, memref::AllocOp, memref::AllocaOp,
             memref::DeallocOp, memref::DimOp, memref::CopyOp, memref::CastOp,
             memref::ExtractAlignedPointerAsIndexOp,
             memref::ExtractStridedMetadataOp, vector::TransferReadOp,
             vector::TransferWriteOp, vector::LoadOp, vector::StoreOp,
             func::FuncOp, func::ReturnOp, func::CallOp, scf::ForOp, scf::IfOp,
             scf::YieldOp, scf::WhileOp, scf::ConditionOp, scf::ForallOp,
             scf::InParallelOp, scf::ParallelOp>(op) ||
         (isa<memref::SubViewOp>(op) &&
          isWholeView(cast<memref::SubViewOp>(op)));
}

/// Whether `v`, of a non-identity layout, is still the whole buffer (a
/// whole view, possibly cast).
bool isWholeBuffer(Value v) {
  if (auto cast = v.getDefiningOp<memref::CastOp>())
    return isWholeBuffer(cast.getSource());
  // Carried through a loop: what it starts as (the loop yields views of
  // the same kind, which the check sees where they are made).
  if (auto arg = dyn_cast<BlockArgument>(v))
    if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
      if (OpOperand *init = loop.getTiedLoopInit(arg))
        return isWholeBuffer(init->get());
  if (auto loop = v.getDefiningOp<scf::ForOp>())
    return isWholeBuffer(
        loop.getInitArgs()[cast<OpResult>(v).getResultNumber()]);
  if (auto branch = v.getDefiningOp<scf::IfOp>()) {
    unsigned n = cast<OpResult>(v).getResultNumber();
    return branch.elseBlock() &&
           isWholeBuffer(branch.thenYield().getOperand(n)) &&
           isWholeBuffer(branch.elseYield().getOperand(n));
  }
  if (auto view = v.getDefiningOp<memref::SubViewOp>())
    return isWholeView(view);
  return false;
}

struct MXQPackFP4Memory : ::mxq::impl::MXQPackFP4MemoryBase<MXQPackFP4Memory> {
  void runOnOperation() override {
    // Tile clamps that are the whole size (min(ceil(n/512)*512, n)) become
    // that size, so that a view through one is seen to be whole.
    SmallVector<Operation *> minMax;
    getOperation()->walk([&](Operation *op) {
      if (isa<affine::AffineMinOp, affine::AffineMaxOp>(op))
        minMax.push_back(op);
    });
    if (!minMax.empty()) {
      IRRewriter rewriter(&getContext());
      (void)affine::simplifyAffineMinMaxOps(rewriter, minMax);
    }
    // What the conversion cannot express is named before anything changes.
    bool bad = false;
    getOperation()->walk([&](Operation *op) {
      if (bad)
        return;
      auto mentions = [](TypeRange types) {
        return llvm::any_of(types, isFP4MemRef);
      };
      bool uses =
          mentions(op->getOperandTypes()) || mentions(op->getResultTypes());
      for (Region &r : op->getRegions())
        for (Block &blk : r)
          uses |= mentions(blk.getArgumentTypes());
      if (!uses)
        return;
      if (!supportedOnFP4(op)) {
        op->emitError() << "mxq-pack-fp4-memory: '" << op->getName()
                        << "' on a buffer of FP4 codes is not supported "
                           "(FP4 codes are packed two per byte; only loads, "
                           "stores, 1-d vector transfers, allocations, "
                           "copies and calls are rewritten)";
        bad = true;
        return;
      }
      auto check = [&](Value v) {
        if (bad)
          return;
        auto m = dyn_cast<MemRefType>(v.getType());
        if (m && isFP4(m.getElementType()) && !m.getLayout().isIdentity() &&
            !isWholeBuffer(v)) {
          op->emitError() << "mxq-pack-fp4-memory: " << m
                          << " has a non-identity layout: FP4 codes are "
                             "packed two per byte along the last axis, and "
                             "only whole (identity-layout) buffers of them "
                             "are addressed";
          bad = true;
        }
      };
      llvm::for_each(op->getOperands(), check);
      llvm::for_each(op->getResults(), check);
      for (Region &r : op->getRegions())
        for (Block &blk : r)
          llvm::for_each(blk.getArguments(), check);
    });
    if (bad)
      return signalPassFailure();

    MLIRContext *ctx = &getContext();
    TypeConverter converter;
    ::mxq::populatePackFP4MemoryTypeConversion(converter);
    RewritePatternSet patterns(ctx);
    ConversionTarget target(*ctx);
    // Which accesses start on a byte, asked of the IR before it changes.
    llvm::DenseSet<Operation *> even =
        ::mxq::findEvenFP4Columns(getOperation());
    ::mxq::populatePackFP4MemoryPatterns(converter, patterns, target, &even);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void ::mxq::populatePackFP4MemoryTypeConversion(TypeConverter &converter) {
  converter.addConversion([](Type t) { return t; });
  converter.addConversion([](MemRefType m) -> Type {
    if (!isFP4(m.getElementType()))
      return m;
    // A non-identity layout only reaches here as a whole view of a buffer
    // (the pass checks): the buffer's own form.
    return MemRefType::get(m.getShape(), IntegerType::get(m.getContext(), 8),
                           MemRefLayoutAttrInterface(), m.getMemorySpace());
  });
}

llvm::DenseSet<Operation *> mxq::findEvenFP4Columns(Operation *root) {
  llvm::DenseSet<Operation *> even;
  root->walk([&](Operation *op) {
    Value base;
    ValueRange indices;
    if (auto r = dyn_cast<vector::TransferReadOp>(op)) {
      base = r.getBase();
      indices = r.getIndices();
    } else if (auto w = dyn_cast<vector::TransferWriteOp>(op)) {
      base = w.getBase();
      indices = w.getIndices();
    } else if (auto ld = dyn_cast<vector::LoadOp>(op)) {
      base = ld.getBase();
      indices = ld.getIndices();
    } else if (auto st = dyn_cast<vector::StoreOp>(op)) {
      base = st.getBase();
      indices = st.getIndices();
    } else {
      return;
    }
    // Even: a multiple of 2, or 0 (knownMultiple's answer for zero).
    if (isFP4MemRef(base.getType()) && !indices.empty() &&
        knownMultiple(indices.back()) % 2 == 0)
      even.insert(op);
  });
  return even;
}

void ::mxq::populatePackFP4MemoryPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    ConversionTarget &target, const llvm::DenseSet<Operation *> *evenColumns) {
  MLIRContext *ctx = patterns.getContext();
  patterns
      .add<PackVectorAccess<vector::TransferReadOp>,
           PackVectorAccess<vector::TransferWriteOp>,
           PackVectorAccess<vector::LoadOp>, PackVectorAccess<vector::StoreOp>>(
          converter, ctx, evenColumns);
  patterns.add<PackLoad, PackStore, PackAlloc<memref::AllocOp>,
               PackAlloc<memref::AllocaOp>, PackCopy, PackWholeView,
               PackPassThrough>(converter, ctx);
  scf::populateSCFStructuralTypeConversions(converter, patterns);
  populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                 converter);
  populateReturnOpTypeConversionPattern(patterns, converter);
  populateCallOpTypeConversionPattern(patterns, converter);
  target.markUnknownOpDynamicallyLegal([&converter](Operation *op) {
    if (auto func = dyn_cast<FunctionOpInterface>(op))
      return converter.isSignatureLegal(
                 cast<FunctionType>(func.getFunctionType())) &&
             converter.isLegal(&func.getFunctionBody());
    return converter.isLegal(op->getOperandTypes()) &&
           converter.isLegal(op->getResultTypes());
  });
}
