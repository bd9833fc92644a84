// RUN: mxq-opt %s --mxq-align-vector-accesses=base-alignment=12 --verify-diagnostics

// expected-error @below {{mxq-align-vector-accesses: base-alignment must be a power of two, got 12}}
func.func @f() {
  return
}
