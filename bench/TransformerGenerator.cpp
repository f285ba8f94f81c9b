//===- TransformerGenerator.cpp - Large, realistic benchmark programs -----===//
//
// Generation runs in two phases. First every node is described as a NodeSpec
// plus the metadata of its outputs (a prefix of a topologically ordered list
// is itself valid, so the last block can simply be cut to the requested
// count). Then the graph inputs are added, the nodes appended in order and
// the value tables, signature, module call graph and range constraint
// filled in.
//
//===----------------------------------------------------------------------===//

#include "pt2ir/bench/TransformerGenerator.h"

#include "pt2ir/ir/Graph.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include <cassert>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace pt2ir {
namespace bench {
namespace {

constexpr int64_t Int64 = 5;
constexpr int64_t Float32 = 7;
constexpr int64_t Bool = 12;
constexpr int64_t Positional = 1;
constexpr int64_t Keyword = 2;
constexpr int64_t ContiguousFormat = 1;

const char *const BatchSymbol = "Symbol('s0', positive=True, integer=True)";

/// One dimension: a constant, or a constant multiple of the batch symbol.
struct Dim {
  int64_t coeff;
  bool batch;
};
Dim lit(int64_t v) { return {v, false}; }
Dim batch(int64_t k = 1) { return {k, true}; }

/// A tensor value being built: its name and what goes in tensor_values.
struct Tensor {
  llvm::StringRef name;
  std::vector<Dim> sizes;
  std::vector<int64_t> strides;
  int64_t dtype = Float32;
  bool requiresGrad = false;
};

/// A graph input with its signature entry.
struct Input {
  Tensor tensor;
  InputKind kind;
  llvm::StringRef target;
};

/// One node before it is appended, with the metadata of what it defines.
struct PendingNode {
  NodeSpec spec;
  std::vector<Tensor> tensors;
  std::vector<std::pair<llvm::StringRef, Dim>> symbols;
};

/// The three metadata strings of a node, already interned.
struct Meta {
  llvm::StringRef stackTrace;
  llvm::StringRef moduleStack;
  llvm::StringRef sourceFn;
};

std::vector<int64_t> contiguousStrides(const std::vector<Dim> &sizes) {
  std::vector<int64_t> strides(sizes.size());
  int64_t running = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = running;
    assert((i == 0 || !sizes[i].batch) &&
           "the batch symbol only leads a shape");
    running *= sizes[i].coeff;
  }
  return strides;
}

/// Source lines of the pretend model file and of the library it calls; the
/// stack traces are built from these frames the way Python prints them.
struct Frame {
  const char *file;
  int line;
  const char *function;
  const char *code;
};
const char *const ModelFile = "/srv/models/tiny_gpt.py";
const char *const LinearFile =
    "/opt/venv/lib/python3.11/site-packages/torch/nn/modules/linear.py";
const char *const NormFile =
    "/opt/venv/lib/python3.11/site-packages/torch/nn/modules/normalization.py";
const char *const SparseFile =
    "/opt/venv/lib/python3.11/site-packages/torch/nn/modules/sparse.py";
const char *const ActFile =
    "/opt/venv/lib/python3.11/site-packages/torch/nn/modules/activation.py";
const char *const FunctionalFile =
    "/opt/venv/lib/python3.11/site-packages/torch/nn/functional.py";

const Frame ModelShape{ModelFile, 139, "forward", "b, t = idx.size()"};
const Frame ModelPos{
    ModelFile, 140, "forward",
    "pos = torch.arange(0, t, dtype=torch.long, device=idx.device)"};
const Frame ModelEmbed{ModelFile, 141, "forward",
                       "x = self.wte(idx) + self.wpe(pos)"};
const Frame ModelBlock{ModelFile, 143, "forward", "x = block(x)"};
const Frame ModelFinalNorm{ModelFile, 144, "forward", "x = self.ln_f(x)"};
const Frame ModelHead{ModelFile, 145, "forward", "return self.lm_head(x)"};
const Frame BlockAttn{ModelFile, 97, "forward",
                      "x = x + self.attn(self.ln_1(x))"};
const Frame BlockMlp{ModelFile, 98, "forward",
                     "x = x + self.mlp(self.ln_2(x))"};
const Frame AttnQkv{ModelFile, 61, "forward",
                    "q, k, v = self.qkv(x).split(self.n_embd, dim=2)"};
const Frame AttnHeads{
    ModelFile, 62, "forward",
    "q = q.view(b, t, self.n_head, c // self.n_head).transpose(1, 2)"};
const Frame AttnScores{
    ModelFile, 65, "forward",
    "att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))"};
const Frame AttnMask{
    ModelFile, 66, "forward",
    "att = att.masked_fill(~self.mask[:, :, :t, :t], float(\"-inf\"))"};
const Frame AttnSoftmax{ModelFile, 67, "forward",
                        "att = F.softmax(att, dim=-1)"};
const Frame AttnValues{ModelFile, 68, "forward", "y = att @ v"};
const Frame AttnMerge{ModelFile, 69, "forward",
                      "y = y.transpose(1, 2).contiguous().view(b, t, c)"};
const Frame AttnProj{ModelFile, 70, "forward", "return self.proj(y)"};
const Frame MlpBody{ModelFile, 80, "forward",
                    "return self.fc2(self.act(self.fc1(x)))"};
const Frame LibLinear{LinearFile, 125, "forward",
                      "return F.linear(input, self.weight, self.bias)"};
const Frame LibNorm{NormFile, 217, "forward",
                    "return F.layer_norm(input, self.normalized_shape, "
                    "self.weight, self.bias, self.eps)"};
const Frame LibNormImpl{
    FunctionalFile, 2910, "layer_norm",
    "return torch.layer_norm(input, normalized_shape, weight, bias, eps, "
    "torch.backends.cudnn.enabled)"};
const Frame LibEmbedding{
    SparseFile, 190, "forward",
    "return F.embedding(input, self.weight, self.padding_idx, self.max_norm, "
    "self.norm_type, self.scale_grad_by_freq, self.sparse)"};
const Frame LibEmbeddingImpl{
    FunctionalFile, 2551, "embedding",
    "return torch.embedding(weight, input, padding_idx, "
    "scale_grad_by_freq, sparse)"};
const Frame LibGelu{ActFile, 734, "forward",
                    "return F.gelu(input, approximate=self.approximate)"};
const Frame LibSoftmax{FunctionalFile, 2140, "softmax",
                       "ret = input.softmax(dim)"};

class TransformerBuilder {
public:
  TransformerBuilder(ExportedProgram &ep, const GeneratorOptions &o)
      : ep(ep), ctx(ep.getContext()), o(o), headDim(o.embedDim / o.numHeads) {}

  llvm::Error build();

private:
  llvm::StringRef intern(const llvm::Twine &t) { return ctx.intern(t.str()); }

  /// torch's naming: `view`, `view_1`, `view_2`, ...
  llvm::StringRef fresh(llvm::StringRef base) {
    unsigned &n = nameCounts[base];
    llvm::StringRef name =
        n == 0 ? ctx.intern(base) : intern(base + "_" + llvm::Twine(n));
    ++n;
    return name;
  }

  llvm::StringRef trace(std::initializer_list<const Frame *> frames) {
    std::string s;
    for (const Frame *f : frames) {
      if (!s.empty())
        s += "\n  ";
      s += "File \"" + std::string(f->file) + "\", line " +
           std::to_string(f->line) + ", in " + f->function + "\n    " + f->code;
    }
    return ctx.intern(s);
  }

  //===--- Arguments ---===//
  NamedArgument arg(llvm::StringRef name, Argument a,
                    int64_t kind = Positional) {
    NamedArgument na;
    na.name = ctx.intern(name);
    na.arg = std::move(a);
    na.kind = kind;
    return na;
  }
  NamedArgument tensorArg(llvm::StringRef name, const Tensor &t) {
    return arg(name, Argument::tensor(ctx, t.name));
  }
  NamedArgument intArg(llvm::StringRef name, int64_t v) {
    return arg(name, Argument::integer(v));
  }
  /// A size list: as_ints when constant, as_sym_ints naming the sym values
  /// otherwise.
  NamedArgument shapeArg(llvm::StringRef name, const std::vector<Dim> &shape) {
    bool symbolic = false;
    for (const Dim &d : shape)
      symbolic |= d.batch;
    if (!symbolic) {
      std::vector<int64_t> ints;
      for (const Dim &d : shape)
        ints.push_back(d.coeff);
      return arg(name, Argument::ints(std::move(ints)));
    }
    std::vector<SymArg> syms;
    for (const Dim &d : shape) {
      if (!d.batch) {
        SymArg a;
        a.intValue = d.coeff;
        syms.push_back(a);
        continue;
      }
      auto it = batchMultiples.find(d.coeff);
      assert(it != batchMultiples.end() &&
             "no sym value for this multiple of s0");
      syms.push_back(Argument::symRef(ctx, it->second));
    }
    return arg(name, Argument::symList(ArgKind::SymInts, std::move(syms)));
  }

  //===--- Nodes ---===//
  PendingNode &push(llvm::StringRef target, std::vector<NamedArgument> inputs,
                    const Meta &md, llvm::StringRef nodeName) {
    pending.emplace_back();
    PendingNode &p = pending.back();
    p.spec.target = ctx.intern(target);
    p.spec.inputs = std::move(inputs);
    p.spec.metadata.emplace_back(keyStackTrace, md.stackTrace);
    p.spec.metadata.emplace_back(keyModuleStack, md.moduleStack);
    if (!md.sourceFn.empty())
      p.spec.metadata.emplace_back(keySourceFn, md.sourceFn);
    p.spec.name = nodeName;
    return p;
  }
  /// A node with one tensor output named after `base`.
  Tensor op(llvm::StringRef target, llvm::StringRef base,
            std::vector<NamedArgument> inputs, std::vector<Dim> sizes,
            const Meta &md, std::vector<int64_t> strides = {},
            int64_t dtype = Float32) {
    Tensor t;
    t.name = fresh(base);
    t.strides = strides.empty() ? contiguousStrides(sizes) : std::move(strides);
    t.sizes = std::move(sizes);
    t.dtype = dtype;
    t.requiresGrad = true;
    PendingNode &p = push(target, std::move(inputs), md, t.name);
    p.spec.outputs.push_back(Argument::tensor(ctx, t.name));
    p.tensors.push_back(t);
    return t;
  }
  /// `_operator.mul(sym_size, k)`, defining the sym value for k * s0.
  void symMul(llvm::StringRef symSize, int64_t k, const Meta &md) {
    llvm::StringRef name = fresh("mul");
    std::vector<NamedArgument> in;
    in.push_back(arg(
        "a", Argument::sym(ArgKind::SymInt, Argument::symRef(ctx, symSize))));
    in.push_back(intArg("b", k));
    PendingNode &p = push("_operator.mul", std::move(in), md, name);
    p.spec.outputs.push_back(
        Argument::sym(ArgKind::SymInt, Argument::symRef(ctx, name)));
    p.symbols.push_back({name, batch(k)});
    batchMultiples[k] = name;
  }

  Tensor view(llvm::StringRef target, llvm::StringRef base, const Tensor &x,
              std::vector<Dim> shape, const Meta &md) {
    std::vector<NamedArgument> in;
    in.push_back(tensorArg("self", x));
    in.push_back(shapeArg("size", shape));
    return op(target, base, std::move(in), std::move(shape), md);
  }
  Tensor transpose(const Tensor &x, int64_t d0, int64_t d1, const Meta &md) {
    std::vector<NamedArgument> in;
    in.push_back(tensorArg("self", x));
    in.push_back(intArg("dim0", d0));
    in.push_back(intArg("dim1", d1));
    int64_t rank = static_cast<int64_t>(x.sizes.size());
    size_t a = static_cast<size_t>((d0 + rank) % rank),
           b = static_cast<size_t>((d1 + rank) % rank);
    std::vector<Dim> sizes = x.sizes;
    std::vector<int64_t> strides = x.strides;
    std::swap(sizes[a], sizes[b]);
    std::swap(strides[a], strides[b]);
    return op("torch.ops.aten.transpose.int", "transpose", std::move(in),
              std::move(sizes), md, std::move(strides));
  }
  Tensor expand(const Tensor &x, const Meta &md) {
    std::vector<NamedArgument> in;
    in.push_back(tensorArg("self", x));
    in.push_back(shapeArg("size", x.sizes));
    return op("torch.ops.aten.expand.default", "expand", std::move(in), x.sizes,
              md, x.strides);
  }
  Tensor contiguousClone(const Tensor &x, const Meta &md) {
    std::vector<NamedArgument> in;
    in.push_back(tensorArg("self", x));
    in.push_back(arg("memory_format", Argument::memoryFormat(ContiguousFormat),
                     Keyword));
    return op("torch.ops.aten.clone.default", "clone", std::move(in), x.sizes,
              md);
  }
  Tensor transposeWeight(const Tensor &w, const Meta &md) {
    std::vector<NamedArgument> in;
    in.push_back(tensorArg("self", w));
    return op("torch.ops.aten.t.default", "t", std::move(in),
              {w.sizes[1], w.sizes[0]}, md, {w.strides[1], w.strides[0]});
  }
  /// x @ w.T + b on [B, T, in] through the 2-D views torch exports.
  Tensor linear(const Tensor &x, const Tensor &w, const Tensor &b,
                const Meta &md) {
    Tensor wt = transposeWeight(w, md);
    int64_t inDim = w.sizes[1].coeff, outDim = w.sizes[0].coeff;
    Tensor flat = view("torch.ops.aten.view.default", "view", x,
                       {batch(o.seqLen), lit(inDim)}, md);
    std::vector<NamedArgument> in;
    in.push_back(tensorArg("self", b));
    in.push_back(tensorArg("mat1", flat));
    in.push_back(tensorArg("mat2", wt));
    Tensor mm = op("torch.ops.aten.addmm.default", "addmm", std::move(in),
                   {batch(o.seqLen), lit(outDim)}, md);
    return view("torch.ops.aten.view.default", "view", mm,
                {batch(), lit(o.seqLen), lit(outDim)}, md);
  }
  /// native_layer_norm: three outputs, the last two unused by inference.
  Tensor layerNorm(const Tensor &x, const Tensor &w, const Tensor &b,
                   const Meta &md) {
    llvm::StringRef nodeName = fresh("native_layer_norm");
    std::vector<NamedArgument> in;
    in.push_back(tensorArg("input", x));
    in.push_back(arg("normalized_shape", Argument::ints({o.embedDim})));
    in.push_back(tensorArg("weight", w));
    in.push_back(tensorArg("bias", b));
    in.push_back(arg("eps", Argument::floating(1e-05)));
    PendingNode &p = push("torch.ops.aten.native_layer_norm.default",
                          std::move(in), md, nodeName);
    Tensor out;
    out.name = fresh("getitem");
    out.sizes = x.sizes;
    out.strides = contiguousStrides(x.sizes);
    out.requiresGrad = true;
    std::vector<Dim> statSizes = {batch(), lit(o.seqLen), lit(1)};
    Tensor mean{intern(nodeName + "_unused_1"), statSizes,
                contiguousStrides(statSizes), Float32, true};
    Tensor rstd{intern(nodeName + "_unused_2"), statSizes,
                contiguousStrides(statSizes), Float32, true};
    for (const Tensor *t : {&out, &mean, &rstd}) {
      p.spec.outputs.push_back(Argument::tensor(ctx, t->name));
      p.tensors.push_back(*t);
    }
    return out;
  }

  Tensor param(const llvm::Twine &fqn, std::vector<Dim> sizes) {
    std::string target = fqn.str();
    std::string name = "p_" + target;
    for (char &c : name)
      if (c == '.')
        c = '_';
    Tensor t{ctx.intern(name), sizes, contiguousStrides(sizes), Float32, true};
    inputs.push_back({t, InputKind::Parameter, ctx.intern(target)});
    return t;
  }

  void prologue();
  void block(unsigned layer);
  void head();
  llvm::Error materialize();

  ExportedProgram &ep;
  IRContext &ctx;
  const GeneratorOptions &o;
  int64_t headDim;
  llvm::StringMap<unsigned> nameCounts;
  std::map<int64_t, llvm::StringRef> batchMultiples;
  std::vector<PendingNode> pending;
  std::vector<Input> inputs;
  std::vector<Input> buffers;
  std::vector<std::string> submodules;
  Tensor idx, residual;
  llvm::StringRef symSize;
  llvm::StringRef keyStackTrace = ctx.intern("stack_trace");
  llvm::StringRef keyModuleStack = ctx.intern("nn_module_stack");
  llvm::StringRef keySourceFn = ctx.intern("source_fn_stack");
  llvm::StringRef rootStack = ctx.intern("L__self__,,__main__.TinyGPT");
};

void TransformerBuilder::prologue() {
  idx = Tensor{ctx.intern("idx"), {batch(), lit(o.seqLen)}, {}, Int64, false};
  idx.strides = contiguousStrides(idx.sizes);
  Tensor wte = param("wte.weight", {lit(o.vocabSize), lit(o.embedDim)});
  Tensor wpe = param("wpe.weight", {lit(o.seqLen), lit(o.embedDim)});
  submodules = {"wte", "wpe", "h"};

  Meta shapeMd{trace({&ModelShape}), rootStack, {}};
  symSize = fresh("sym_size");
  {
    std::vector<NamedArgument> in;
    in.push_back(tensorArg("self", idx));
    in.push_back(intArg("dim", 0));
    PendingNode &p =
        push("torch.ops.aten.sym_size.int", std::move(in), shapeMd, symSize);
    p.spec.outputs.push_back(
        Argument::sym(ArgKind::SymInt, Argument::symRef(ctx, symSize)));
    p.symbols.push_back({symSize, batch()});
    batchMultiples[1] = symSize;
  }
  symMul(symSize, o.seqLen, shapeMd);
  symMul(symSize, o.numHeads, shapeMd);

  Meta posMd{trace({&ModelPos}), rootStack, {}};
  std::vector<NamedArgument> in;
  in.push_back(intArg("start", 0));
  in.push_back(intArg("end", o.seqLen));
  in.push_back(arg("dtype", Argument::scalarType(Int64), Keyword));
  Device cpu;
  cpu.type = ctx.intern("cpu");
  in.push_back(arg("device", Argument::device(cpu), Keyword));
  in.push_back(arg("pin_memory", Argument::boolean(false), Keyword));
  Tensor pos = op("torch.ops.aten.arange.start", "arange", std::move(in),
                  {lit(o.seqLen)}, posMd, {}, Int64);

  auto embedding = [&](const Tensor &w, const Tensor &ids,
                       llvm::StringRef module) {
    Meta md{trace({&ModelEmbed, &LibEmbedding, &LibEmbeddingImpl}),
            intern(rootStack + ";L__self___" + module + "," + module +
                   ",torch.nn.modules.sparse.Embedding"),
            intern(module + ",torch.nn.modules.sparse.Embedding")};
    std::vector<NamedArgument> args;
    args.push_back(tensorArg("weight", w));
    args.push_back(tensorArg("indices", ids));
    std::vector<Dim> sizes = ids.sizes;
    sizes.push_back(lit(o.embedDim));
    return op("torch.ops.aten.embedding.default", "embedding", std::move(args),
              sizes, md);
  };
  Tensor tok = embedding(wte, idx, "wte");
  Tensor posEmb = embedding(wpe, pos, "wpe");
  Meta addMd{trace({&ModelEmbed}), rootStack, {}};
  std::vector<NamedArgument> addIn;
  addIn.push_back(tensorArg("self", tok));
  addIn.push_back(tensorArg("other", posEmb));
  residual = op("torch.ops.aten.add.Tensor", "add", std::move(addIn), tok.sizes,
                addMd);
}

void TransformerBuilder::block(unsigned layer) {
  std::string h = "h." + std::to_string(layer);
  std::string hu = "h_" + std::to_string(layer);
  int64_t C = o.embedDim, T = o.seqLen, H = o.numHeads, D = headDim;
  Tensor ln1w = param(h + ".ln_1.weight", {lit(C)}),
         ln1b = param(h + ".ln_1.bias", {lit(C)});
  Tensor qkvw = param(h + ".attn.qkv.weight", {lit(3 * C), lit(C)});
  Tensor qkvb = param(h + ".attn.qkv.bias", {lit(3 * C)});
  Tensor projw = param(h + ".attn.proj.weight", {lit(C), lit(C)});
  Tensor projb = param(h + ".attn.proj.bias", {lit(C)});
  Tensor ln2w = param(h + ".ln_2.weight", {lit(C)}),
         ln2b = param(h + ".ln_2.bias", {lit(C)});
  Tensor fc1w = param(h + ".mlp.fc1.weight", {lit(4 * C), lit(C)});
  Tensor fc1b = param(h + ".mlp.fc1.bias", {lit(4 * C)});
  Tensor fc2w = param(h + ".mlp.fc2.weight", {lit(C), lit(4 * C)});
  Tensor fc2b = param(h + ".mlp.fc2.bias", {lit(C)});
  std::vector<Dim> maskSizes = {lit(1), lit(1), lit(T), lit(T)};
  Tensor mask{intern("b_" + hu + "_attn_mask"), maskSizes,
              contiguousStrides(maskSizes), Bool, false};
  buffers.push_back({mask, InputKind::Buffer, intern(h + ".attn.mask")});
  for (const char *sub : {"", ".ln_1", ".attn", ".attn.qkv", ".attn.proj",
                          ".ln_2", ".mlp", ".mlp.fc1", ".mlp.act", ".mlp.fc2"})
    submodules.push_back(h + sub);

  // Module stacks and source functions of this block.
  std::string blockStack =
      std::string(rootStack) + ";L__self___" + hu + "," + h + ",__main__.Block";
  auto stackOf = [&](llvm::StringRef sub, llvm::StringRef cls) {
    std::string su = sub.str();
    for (char &c : su)
      if (c == '.')
        c = '_';
    return intern(blockStack + ";L__self___" + hu + "_" + su + "," + h + "." +
                  sub + "," + cls);
  };
  auto sourceOf = [&](llvm::StringRef sub, llvm::StringRef cls) {
    std::string su = sub.str();
    for (char &c : su)
      if (c == '.')
        c = '_';
    return intern(hu + "_" + su + "," + cls);
  };
  const char *LayerNormCls = "torch.nn.modules.normalization.LayerNorm";
  const char *LinearCls = "torch.nn.modules.linear.Linear";
  const char *AttnCls = "__main__.CausalSelfAttention";
  llvm::StringRef attnStack = stackOf("attn", AttnCls);
  llvm::StringRef attnSource = sourceOf("attn", AttnCls);
  llvm::StringRef mlpStack = stackOf("mlp", "__main__.MLP");
  auto within = [&](llvm::StringRef outer, llvm::StringRef sub,
                    llvm::StringRef cls) {
    std::string su = sub.str();
    for (char &c : su)
      if (c == '.')
        c = '_';
    return intern(outer + ";L__self___" + hu + "_" + su + "," + h + "." + sub +
                  "," + cls);
  };

  Meta ln1Md{trace({&ModelBlock, &BlockAttn, &LibNorm, &LibNormImpl}),
             stackOf("ln_1", LayerNormCls), sourceOf("ln_1", LayerNormCls)};
  Meta qkvMd{trace({&ModelBlock, &BlockAttn, &AttnQkv, &LibLinear}),
             within(attnStack, "attn.qkv", LinearCls),
             sourceOf("attn.qkv", LinearCls)};
  Meta splitMd{trace({&ModelBlock, &BlockAttn, &AttnQkv}), attnStack,
               attnSource};
  Meta maskMd{trace({&ModelBlock, &BlockAttn, &AttnMask}), attnStack,
              attnSource};
  Meta headsMd{trace({&ModelBlock, &BlockAttn, &AttnHeads}), attnStack,
               attnSource};
  Meta scoresMd{trace({&ModelBlock, &BlockAttn, &AttnScores}), attnStack,
                attnSource};
  Meta softmaxMd{trace({&ModelBlock, &BlockAttn, &AttnSoftmax, &LibSoftmax}),
                 attnStack, attnSource};
  Meta valuesMd{trace({&ModelBlock, &BlockAttn, &AttnValues}), attnStack,
                attnSource};
  Meta mergeMd{trace({&ModelBlock, &BlockAttn, &AttnMerge}), attnStack,
               attnSource};
  Meta projMd{trace({&ModelBlock, &BlockAttn, &AttnProj, &LibLinear}),
              within(attnStack, "attn.proj", LinearCls),
              sourceOf("attn.proj", LinearCls)};
  Meta residualMd{trace({&ModelBlock, &BlockAttn}), intern(blockStack), {}};
  Meta ln2Md{trace({&ModelBlock, &BlockMlp, &LibNorm, &LibNormImpl}),
             stackOf("ln_2", LayerNormCls), sourceOf("ln_2", LayerNormCls)};
  Meta fc1Md{trace({&ModelBlock, &BlockMlp, &MlpBody, &LibLinear}),
             within(mlpStack, "mlp.fc1", LinearCls),
             sourceOf("mlp.fc1", LinearCls)};
  Meta actMd{trace({&ModelBlock, &BlockMlp, &MlpBody, &LibGelu}),
             within(mlpStack, "mlp.act", "torch.nn.modules.activation.GELU"),
             sourceOf("mlp.act", "torch.nn.modules.activation.GELU")};
  Meta fc2Md{trace({&ModelBlock, &BlockMlp, &MlpBody, &LibLinear}),
             within(mlpStack, "mlp.fc2", LinearCls),
             sourceOf("mlp.fc2", LinearCls)};
  Meta residual2Md{trace({&ModelBlock, &BlockMlp}), intern(blockStack), {}};

  // Attention.
  Tensor x = residual;
  Tensor ln1 = layerNorm(x, ln1w, ln1b, ln1Md);
  Tensor qkv = linear(ln1, qkvw, qkvb, qkvMd);
  llvm::StringRef splitName = fresh("split");
  std::vector<NamedArgument> splitIn;
  splitIn.push_back(tensorArg("self", qkv));
  splitIn.push_back(intArg("split_size", C));
  splitIn.push_back(intArg("dim", 2));
  PendingNode &sp = push("torch.ops.aten.split.Tensor", std::move(splitIn),
                         splitMd, splitName);
  std::vector<Tensor> parts;
  std::vector<llvm::StringRef> partNames;
  for (int i = 0; i < 3; ++i) {
    Tensor t{fresh("getitem"),
             {batch(), lit(T), lit(C)},
             {T * 3 * C, 3 * C, 1},
             Float32,
             true};
    parts.push_back(t);
    partNames.push_back(t.name);
    sp.tensors.push_back(t);
  }
  sp.spec.outputs.push_back(Argument::tensors(ctx, partNames));

  auto slice = [&](const Tensor &t, int64_t dim) {
    std::vector<NamedArgument> in;
    in.push_back(tensorArg("self", t));
    in.push_back(intArg("dim", dim));
    in.push_back(intArg("start", 0));
    in.push_back(intArg("end", T));
    return op("torch.ops.aten.slice.Tensor", "slice", std::move(in), t.sizes,
              maskMd, t.strides, Bool);
  };
  Tensor notMask;
  {
    Tensor s = slice(slice(mask, 2), 3);
    std::vector<NamedArgument> in;
    in.push_back(tensorArg("self", s));
    notMask = op("torch.ops.aten.bitwise_not.default", "bitwise_not",
                 std::move(in), s.sizes, maskMd, {}, Bool);
  }
  std::vector<Tensor> heads;
  for (const Tensor &p : parts) {
    Tensor v = view("torch.ops.aten.view.default", "view", p,
                    {batch(), lit(T), lit(H), lit(D)}, headsMd);
    heads.push_back(transpose(v, 1, 2, headsMd));
  }
  Tensor kT = transpose(heads[1], -2, -1, scoresMd);
  auto batched = [&](const Tensor &t, std::vector<Dim> flat, const Meta &md) {
    return view("torch.ops.aten._unsafe_view.default", "_unsafe_view",
                contiguousClone(expand(t, md), md), std::move(flat), md);
  };
  Tensor q3 = batched(heads[0], {batch(H), lit(T), lit(D)}, scoresMd);
  Tensor k3 = batched(kT, {batch(H), lit(D), lit(T)}, scoresMd);
  auto bmm = [&](const Tensor &a, const Tensor &b, int64_t cols,
                 const Meta &md) {
    std::vector<NamedArgument> in;
    in.push_back(tensorArg("self", a));
    in.push_back(tensorArg("mat2", b));
    return op("torch.ops.aten.bmm.default", "bmm", std::move(in),
              {batch(H), lit(T), lit(cols)}, md);
  };
  Tensor scores = view("torch.ops.aten._unsafe_view.default", "_unsafe_view",
                       bmm(q3, k3, T, scoresMd),
                       {batch(), lit(H), lit(T), lit(T)}, scoresMd);
  std::vector<NamedArgument> mulIn;
  mulIn.push_back(tensorArg("self", scores));
  mulIn.push_back(arg("other", Argument::floating(0.25)));
  Tensor scaled = op("torch.ops.aten.mul.Tensor", "mul", std::move(mulIn),
                     scores.sizes, scoresMd);
  std::vector<NamedArgument> fillIn;
  fillIn.push_back(tensorArg("self", scaled));
  fillIn.push_back(tensorArg("mask", notMask));
  fillIn.push_back(arg("value", Argument::floating(-HUGE_VAL)));
  Tensor masked = op("torch.ops.aten.masked_fill.Scalar", "masked_fill",
                     std::move(fillIn), scaled.sizes, maskMd);
  std::vector<NamedArgument> smIn;
  smIn.push_back(tensorArg("self", masked));
  smIn.push_back(intArg("dim", -1));
  smIn.push_back(arg("half_to_float", Argument::boolean(false)));
  Tensor att = op("torch.ops.aten._softmax.default", "_softmax",
                  std::move(smIn), masked.sizes, softmaxMd);
  Tensor att3 =
      view("torch.ops.aten.view.default", "view", expand(att, valuesMd),
           {batch(H), lit(T), lit(T)}, valuesMd);
  Tensor v3 = batched(heads[2], {batch(H), lit(T), lit(D)}, valuesMd);
  Tensor y = view("torch.ops.aten._unsafe_view.default", "_unsafe_view",
                  bmm(att3, v3, D, valuesMd), {batch(), lit(H), lit(T), lit(D)},
                  valuesMd);
  Tensor merged = view("torch.ops.aten.view.default", "view",
                       contiguousClone(transpose(y, 1, 2, mergeMd), mergeMd),
                       {batch(), lit(T), lit(C)}, mergeMd);
  Tensor proj = linear(merged, projw, projb, projMd);
  std::vector<NamedArgument> addIn;
  addIn.push_back(tensorArg("self", x));
  addIn.push_back(tensorArg("other", proj));
  Tensor x1 = op("torch.ops.aten.add.Tensor", "add", std::move(addIn), x.sizes,
                 residualMd);

  // MLP.
  Tensor ln2 = layerNorm(x1, ln2w, ln2b, ln2Md);
  Tensor hidden = linear(ln2, fc1w, fc1b, fc1Md);
  std::vector<NamedArgument> geluIn;
  geluIn.push_back(tensorArg("self", hidden));
  Tensor act = op("torch.ops.aten.gelu.default", "gelu", std::move(geluIn),
                  hidden.sizes, actMd);
  Tensor out = linear(act, fc2w, fc2b, fc2Md);
  std::vector<NamedArgument> add2In;
  add2In.push_back(tensorArg("self", x1));
  add2In.push_back(tensorArg("other", out));
  residual = op("torch.ops.aten.add.Tensor", "add", std::move(add2In), x1.sizes,
                residual2Md);
}

void TransformerBuilder::head() {
  Tensor lnw = param("ln_f.weight", {lit(o.embedDim)}),
         lnb = param("ln_f.bias", {lit(o.embedDim)});
  Tensor lmw = param("lm_head.weight", {lit(o.vocabSize), lit(o.embedDim)});
  submodules.push_back("ln_f");
  submodules.push_back("lm_head");
  const char *LayerNormCls = "torch.nn.modules.normalization.LayerNorm";
  Meta lnMd{trace({&ModelFinalNorm, &LibNorm, &LibNormImpl}),
            intern(rootStack + ";L__self___ln_f,ln_f," + LayerNormCls),
            intern(llvm::Twine("ln_f,") + LayerNormCls)};
  Meta headMd{
      trace({&ModelHead, &LibLinear}),
      intern(rootStack +
             ";L__self___lm_head,lm_head,torch.nn.modules.linear.Linear"),
      ctx.intern("lm_head,torch.nn.modules.linear.Linear")};
  Tensor x = layerNorm(residual, lnw, lnb, lnMd);
  Tensor wt = transposeWeight(lmw, headMd);
  Tensor flat = view("torch.ops.aten.view.default", "view", x,
                     {batch(o.seqLen), lit(o.embedDim)}, headMd);
  std::vector<NamedArgument> in;
  in.push_back(tensorArg("self", flat));
  in.push_back(tensorArg("mat2", wt));
  Tensor mm = op("torch.ops.aten.mm.default", "mm", std::move(in),
                 {batch(o.seqLen), lit(o.vocabSize)}, headMd);
  residual = view("torch.ops.aten._unsafe_view.default", "_unsafe_view", mm,
                  {batch(), lit(o.seqLen), lit(o.vocabSize)}, headMd);
}

SymValue sizeOf(IRContext &ctx, Dim d, int64_t hint) {
  if (!d.batch)
    return SymValue::ofInt(d.coeff);
  std::string expr = d.coeff == 1 ? std::string(BatchSymbol)
                                  : "Mul(Integer(" + std::to_string(d.coeff) +
                                        "), " + BatchSymbol + ")";
  SymValue v = SymValue::ofExpr(ctx.intern(expr));
  SymExprHint h;
  h.kind = SymExprHint::Kind::Int;
  h.intValue = d.coeff * hint;
  v.expr.hint = h;
  return v;
}

TensorMeta tensorMeta(IRContext &ctx, const Tensor &t, int64_t hint) {
  TensorMeta m;
  m.dtype = static_cast<ScalarType>(t.dtype);
  for (const Dim &d : t.sizes)
    m.sizes.push_back(sizeOf(ctx, d, hint));
  m.requiresGrad = t.requiresGrad;
  m.device.type = ctx.intern("cpu");
  for (int64_t s : t.strides)
    m.strides.push_back(SymValue::ofInt(s));
  m.storageOffset = SymValue::ofInt(0);
  return m;
}

llvm::Error TransformerBuilder::materialize() {
  Graph &g = ep.getGraph();
  auto addInput = [&](const Input &in) -> llvm::Error {
    if (auto err = g.addInput(Argument::tensor(ctx, in.tensor.name)))
      return err;
    g.lookupValue(in.tensor.name)
        ->setTensorMeta(tensorMeta(ctx, in.tensor, o.batchHint));
    InputSpec spec;
    spec.kind = in.kind;
    spec.arg = Argument::tensor(ctx, in.tensor.name);
    spec.target = in.target;
    spec.persistent = false;
    ep.graphModule.signature.inputSpecs.push_back(std::move(spec));
    return llvm::Error::success();
  };
  for (const Input &in : inputs)
    if (auto err = addInput(in))
      return err;
  for (const Input &in : buffers)
    if (auto err = addInput(in))
      return err;
  if (auto err = addInput({idx, InputKind::UserInput, {}}))
    return err;
  InputSpec &user = ep.graphModule.signature.inputSpecs.back();
  user.target = {};

  for (PendingNode &p : pending) {
    auto node = g.appendNode(std::move(p.spec));
    if (!node)
      return node.takeError();
    for (const Tensor &t : p.tensors)
      g.lookupValue(t.name)->setTensorMeta(tensorMeta(ctx, t, o.batchHint));
    for (auto &[name, dim] : p.symbols)
      g.lookupValue(name)->setSymMeta(sizeOf(ctx, dim, o.batchHint));
  }
  pending.clear();

  if (auto err = g.addOutput(Argument::tensor(ctx, residual.name)))
    return err;
  OutputSpec out;
  out.kind = OutputKind::UserOutput;
  out.arg = Argument::tensor(ctx, residual.name);
  ep.graphModule.signature.outputSpecs.push_back(std::move(out));

  // Module call graph: the root with its pytree specs, then every submodule.
  ModuleCallEntry root;
  root.fqn = ctx.intern("");
  ModuleCallSignature sig;
  const char *Leaf =
      "{\"type\": null, \"context\": null, \"children_spec\": []}";
  sig.inSpec =
      std::string(
          "[1, {\"type\": \"builtins.tuple\", \"context\": \"null\", "
          "\"children_spec\": [{\"type\": \"builtins.tuple\", \"context\": "
          "\"null\", \"children_spec\": [") +
      Leaf +
      "]}, {\"type\": \"builtins.dict\", \"context\": \"[]\", "
      "\"children_spec\": []}]}]";
  sig.outSpec = std::string("[1, ") + Leaf + "]";
  sig.forwardArgNames = std::vector<llvm::StringRef>{ctx.intern("idx")};
  root.signature = std::move(sig);
  ep.graphModule.moduleCallGraph.push_back(std::move(root));
  for (const std::string &fqn : submodules) {
    ModuleCallEntry e;
    e.fqn = ctx.intern(fqn);
    ep.graphModule.moduleCallGraph.push_back(std::move(e));
  }

  RangeConstraint rc;
  rc.minVal = 2;
  rc.maxVal = o.batchMax;
  ep.rangeConstraints.emplace_back(ctx.intern("s0"), std::move(rc));
  ep.opsetVersion.emplace_back(ctx.intern("aten"), 10);
  ep.verifiers.push_back(ctx.intern("ATEN"));
  ep.torchVersion = "2.9.0";
  return llvm::Error::success();
}

llvm::Error TransformerBuilder::build() {
  prologue();
  size_t bodyEnd = o.numNodes - 5; // The head adds five nodes.
  for (unsigned layer = 0; pending.size() < bodyEnd; ++layer) {
    block(layer);
    if (pending.size() > bodyEnd) {
      // Cut the last block; its dropped nodes defined nothing used before.
      pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(bodyEnd),
                    pending.end());
      residual = Tensor(); // Recomputed below from the last complete block.
    }
  }
  if (residual.name.empty()) {
    // The head reads the residual stream of the last complete block (or
    // the embeddings): the last `add.Tensor` whose output is [B, T, C].
    for (auto it = pending.rbegin(); it != pending.rend(); ++it) {
      if (it->spec.target != "torch.ops.aten.add.Tensor" || it->tensors.empty())
        continue;
      residual = it->tensors.front();
      break;
    }
  }
  head();
  assert(pending.size() == o.numNodes && "node count mismatch");
  return materialize();
}

} // namespace

llvm::Expected<ExportedProgram>
generateTransformer(const GeneratorOptions &options) {
  if (options.numNodes < MinNodes)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "a generated program needs at least %zu nodes, got %zu", MinNodes,
        options.numNodes);
  if (options.numHeads <= 0 || options.embedDim % options.numHeads != 0)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "embedDim must be a positive multiple of numHeads");
  ExportedProgram ep;
  TransformerBuilder builder(ep, options);
  if (auto err = builder.build())
    return err;
  return ep;
}

} // namespace bench
} // namespace pt2ir
