//===- TransformerGenerator.h - Large, realistic benchmark programs -*- C++
//-*-===//
//
// Builds GPT-like exported programs of an exact node count through the IR
// API (Graph::appendNode, Value::setTensorMeta, the signature structs), so
// the benchmark exercises the builder as well as the reader and writer.
//
// A program has a symbolic batch dimension `s0` (a range constraint, a
// sym_size node and `_operator.mul` nodes feeding views), token and position
// embeddings, then transformer blocks (layer norm with three outputs, a
// fused qkv projection split three ways, attention with a causal `-inf`
// mask and softmax, an MLP with gelu, residual adds) and a language-model
// head. Every node carries stack_trace, nn_module_stack and source_fn_stack
// metadata; stack traces repeat across blocks as they do in real exports.
//
// The output is deterministic: the same options give the same bytes. It
// deliberately does not try to be numerically meaningful.
//
//===----------------------------------------------------------------------===//
#ifndef PT2IR_BENCH_TRANSFORMERGENERATOR_H
#define PT2IR_BENCH_TRANSFORMERGENERATOR_H

#include "pt2ir/ir/ExportedProgram.h"
#include "llvm/Support/Error.h"
#include <cstddef>
#include <cstdint>

namespace pt2ir {
namespace bench {

struct GeneratorOptions {
  /// Exact number of nodes in the top-level graph (at least MinNodes). The
  /// last block is cut short when the count does not divide evenly.
  size_t numNodes = 1000;
  int64_t embedDim = 64;
  int64_t numHeads = 4;
  int64_t seqLen = 32;
  int64_t vocabSize = 1000;
  /// Export-time value of the batch symbol and its upper bound.
  int64_t batchHint = 2;
  int64_t batchMax = 1024;
};

/// Nodes outside the transformer blocks (embedding prologue and head).
constexpr size_t MinNodes = 12;

/// Builds the program described above.
llvm::Expected<ExportedProgram>
generateTransformer(const GeneratorOptions &options);

} // namespace bench
} // namespace pt2ir

#endif
