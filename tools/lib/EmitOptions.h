//===- EmitOptions.h - Options shared by the program emitters ---*- C++ -*-===//
//
// The knobs that the Python listing (PythonEmitter.h) and the Graphviz
// picture (DotEmitter.h) both understand. Each emitter documents which of
// them it reads. Command-line flags are the driver's business, not this
// file's.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_TOOLS_EMITOPTIONS_H
#define PT2IR_TOOLS_EMITOPTIONS_H

namespace pt2ir {

/// Positional vs keyword inputs without a stored kind are decided from the
/// schemas of the program's registry.
struct EmitOptions {
  /// Show each value's type (`f32[s0, 3]`): trailing comments in Python,
  /// a label line in Graphviz.
  bool showTypes = true;
  /// Show node metadata (the last line of `stack_trace`, `nn_module_stack`
  /// paths) as comments or tooltips.
  bool showMetadata = false;
};

} // namespace pt2ir

#endif
