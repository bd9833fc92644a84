//===- VTileEnums.td - vtile enum attributes ---------------*- tablegen -*-===//
#ifndef MXQ_TARGET_ASCEND_VTILE_ENUMS_TD
#define MXQ_TARGET_ASCEND_VTILE_ENUMS_TD

include "mxq/Target/Ascend/VTileDialect.td"
include "mlir/IR/EnumAttr.td"

def VTile_MemorySpace : I32EnumAttr<"MemorySpace", "a memory of the core", [
  I32EnumAttrCase<"gm", 0>, I32EnumAttrCase<"ub", 1>]> {
  let cppNamespace = "::mxq::vtile";
  let genSpecializedAttr = 0;
}
def VTile_MemorySpaceAttr : EnumAttr<VTile_Dialect, VTile_MemorySpace, "space"> {
  let assemblyFormat = "`<` $value `>`";
}

def VTile_Pipe : I32EnumAttr<"Pipe", "an in-order instruction queue of the core", [
  I32EnumAttrCase<"s", 0>, I32EnumAttrCase<"v", 1>,
  I32EnumAttrCase<"mte2", 2>, I32EnumAttrCase<"mte3", 3>,
  I32EnumAttrCase<"all", 4>]> {
  let cppNamespace = "::mxq::vtile";
  let genSpecializedAttr = 0;
}
def VTile_PipeAttr : EnumAttr<VTile_Dialect, VTile_Pipe, "pipe"> {
  let assemblyFormat = "`<` $value `>`";
}

def VTile_BinaryKind : I32EnumAttr<"BinaryKind", "a lane-wise binary operation", [
  I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"sub", 1>,
  I32EnumAttrCase<"mul", 2>, I32EnumAttrCase<"div", 3>,
  I32EnumAttrCase<"max", 4>, I32EnumAttrCase<"min", 5>,
  I32EnumAttrCase<"And", 6, "and">, I32EnumAttrCase<"Or", 7, "or">,
  I32EnumAttrCase<"Xor", 8, "xor">, I32EnumAttrCase<"shl", 9>,
  I32EnumAttrCase<"shr", 10>]> {
  let cppNamespace = "::mxq::vtile";
  let genSpecializedAttr = 0;
}
def VTile_BinaryKindAttr : EnumAttr<VTile_Dialect, VTile_BinaryKind, "binary"> {
  let assemblyFormat = "`<` $value `>`";
}

def VTile_UnaryKind : I32EnumAttr<"UnaryKind", "a lane-wise unary operation", [
  I32EnumAttrCase<"abs", 0>, I32EnumAttrCase<"Not", 1, "not">,
  I32EnumAttrCase<"copy", 2>]> {
  let cppNamespace = "::mxq::vtile";
  let genSpecializedAttr = 0;
}
def VTile_UnaryKindAttr : EnumAttr<VTile_Dialect, VTile_UnaryKind, "unary"> {
  let assemblyFormat = "`<` $value `>`";
}

def VTile_CmpPredicate : I32EnumAttr<"CmpPredicate",
    "a comparison (unsigned on ui types, signed on si/i types, ordered on floats)", [
  I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>,
  I32EnumAttrCase<"lt", 2>, I32EnumAttrCase<"le", 3>,
  I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>]> {
  let cppNamespace = "::mxq::vtile";
  let genSpecializedAttr = 0;
}
def VTile_CmpPredicateAttr : EnumAttr<VTile_Dialect, VTile_CmpPredicate, "cmp"> {
  let assemblyFormat = "`<` $value `>`";
}

def VTile_ReduceKind : I32EnumAttr<"ReduceKind", "a reduction", [
  I32EnumAttrCase<"max", 0>, I32EnumAttrCase<"min", 1>,
  I32EnumAttrCase<"sum", 2>]> {
  let cppNamespace = "::mxq::vtile";
  let genSpecializedAttr = 0;
}
def VTile_ReduceKindAttr : EnumAttr<VTile_Dialect, VTile_ReduceKind, "reduce"> {
  let assemblyFormat = "`<` $value `>`";
}

def VTile_RoundMode : I32EnumAttr<"RoundMode", "the round mode of a cast (CANN RoundMode)", [
  I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"rint", 1>,
  I32EnumAttrCase<"round", 2>, I32EnumAttrCase<"floor", 3>,
  I32EnumAttrCase<"ceil", 4>, I32EnumAttrCase<"trunc", 5>,
  I32EnumAttrCase<"odd", 6>]> {
  let cppNamespace = "::mxq::vtile";
  let genSpecializedAttr = 0;
}
def VTile_RoundModeAttr : EnumAttr<VTile_Dialect, VTile_RoundMode, "round"> {
  let assemblyFormat = "`<` $value `>`";
}

#endif // MXQ_TARGET_ASCEND_VTILE_ENUMS_TD
