//===- BindProgram.cpp - pt2ir.load, pt2ir.Program and what hangs off it
//---===//
//
// Reading and writing (load / loads / Program.save / Program.dumps, through
// the same code as pt2-opt: tools/lib/ProgramIO.h, so a `.pt2` archive keeps
// its other entries), the signature, range constraints and module call
// graph as Python objects, the verifier and pass pipelines.
//
// The GIL is released while a file is read and parsed (the new program is
// not shared yet), and during the long operations on a program (save,
// dumps, verify, run_passes), which mark it busy meanwhile (PyProgram.h).
//
//===----------------------------------------------------------------------===//

#include "pt2ir/python/Bindings.h"

#include "pt2ir/ir/Printer.h"
#include "pt2ir/ir/UnbackedBindings.h"
#include "pt2ir/passes/PassManager.h"
#include "pt2ir/python/Convert.h"
#include "pt2ir/python/Errors.h"
#include "pt2ir/python/PyProgram.h"
#include "pt2ir/serde/ProgramReader.h"
#include "pt2ir/serde/ProgramWriter.h"
#include "pt2ir/text/TextFormat.h"
#include "pt2ir/tools/lib/ProgramIO.h"
#include "pt2ir/verifier/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include <pybind11/stl.h>

namespace py = pybind11;

namespace pt2ir::python {

namespace {

std::shared_ptr<const Registry>
registryArg(const std::shared_ptr<PyRegistry> &r) {
  return r ? r->get() : defaultRegistry()->get();
}

ProgramPtr load(const std::string &path, std::optional<std::string> model,
                const std::shared_ptr<PyRegistry> &registry) {
  ReadOptions options;
  options.registry = registryArg(registry);
  std::optional<llvm::Expected<LoadedInput>> read;
  {
    py::gil_scoped_release release;
    read.emplace(loadInput(path, options, model.value_or("")));
  }
  LoadedInput input = unwrap(std::move(*read), ErrorKind::Read);
  if (input.programs.size() != 1) {
    std::string names;
    for (const LoadedProgram &lp : input.programs)
      names += (names.empty() ? "" : ", ") + lp.modelName;
    raise(ErrorKind::Read, path + ": error: the archive holds " +
                               std::to_string(input.programs.size()) +
                               " models (" + names +
                               "); pick one with model=NAME");
  }
  LoadedProgram &lp = input.programs.front();
  auto p = std::make_shared<PyProgram>(std::move(lp.program));
  p->path = path;
  p->displayName = lp.displayName;
  p->modelName = lp.modelName;
  p->archive = std::move(input.archive);
  return p;
}

ProgramPtr loads(py::handle data, const std::shared_ptr<PyRegistry> &registry) {
  std::string text;
  if (py::isinstance<py::bytes>(data))
    text = data.cast<std::string>();
  else if (py::isinstance<py::str>(data))
    text = data.cast<std::string>();
  else
    raise(ErrorKind::Read,
          "loads takes a program (JSON or the text form) as str or bytes");
  if (llvm::StringRef(text).starts_with("PK"))
    raise(ErrorKind::Read,
          "<string>: error: this is a zip archive; loads reads the JSON "
          "of one program (load a .pt2 archive from its file with pt2ir.load)");
  ReadOptions options;
  options.registry = registryArg(registry);
  options.fileName = "<string>";
  std::optional<llvm::Expected<ExportedProgram>> read;
  {
    py::gil_scoped_release release;
    if (looksLikeProgramText(text)) {
      TextReadOptions textOptions;
      textOptions.registry = options.registry;
      textOptions.fileName = options.fileName;
      read.emplace(readProgramText(text, textOptions));
    } else {
      read.emplace(readProgram(text, options));
    }
  }
  auto p =
      std::make_shared<PyProgram>(unwrap(std::move(*read), ErrorKind::Read));
  p->displayName = "<string>";
  return p;
}

VerifyOptions verifyOptions(const std::optional<std::string> &dialect) {
  VerifyOptions options;
  if (dialect)
    options.dialect = *dialect;
  return options;
}

void save(const ProgramPtr &p, const std::string &path) {
  llvm::Error err = llvm::Error::success();
  {
    LongOperation op(*p, "save");
    // A `.pt2ir` name gets the text form, as `pt2-opt -o FILE.pt2ir` does.
    bool text = llvm::StringRef(path).ends_with(".pt2ir");
    std::vector<std::string> json{text ? writeProgramText(p->get())
                                       : writeProgram(p->get())};
    LoadedInput input;
    input.path = p->path.empty() ? p->displayName : p->path;
    LoadedProgram entry;
    entry.modelName = p->modelName;
    entry.displayName = p->displayName;
    input.programs.push_back(std::move(entry));
    // Lend the archive's entries to the writer rather than copying them.
    input.archive = std::move(p->archive);
    err = writeOutput(path, input, json);
    p->archive = std::move(input.archive);
  }
  check(std::move(err), ErrorKind::Write);
}

std::string dumps(const ProgramPtr &p) {
  LongOperation op(*p, "dumps");
  return writeProgram(p->get());
}

std::vector<Diagnostic> verify(const ProgramPtr &p,
                               const std::optional<std::string> &dialect) {
  VerifyOptions options = verifyOptions(dialect);
  LongOperation op(*p, "verify");
  return verifyProgram(p->get(), options);
}

/// The Python value of a signature or module-call-graph argument. Its value
/// slots are detached (they name values): resolve them in the top graph.
py::object detachedToPython(const ProgramPtr &p, const Argument &arg) {
  std::vector<Use *> uses;
  arg.forEachUse([&](Use *u) { uses.push_back(u); });
  bool single =
      arg.getKind() == ArgKind::Tensor || arg.getKind() == ArgKind::SymInt ||
      arg.getKind() == ArgKind::SymBool || arg.getKind() == ArgKind::SymFloat ||
      arg.getKind() == ArgKind::Token || arg.getKind() == ArgKind::CustomObj;
  if (single && uses.size() == 1) {
    if (Value *v = p->use().getGraph().lookupValue(uses.front()->getName()))
      return py::cast(makeValueRef(p, v));
    return py::str(uses.front()->getName().str());
  }
  if (uses.size() == 1 && arg.getKind() == ArgKind::OptionalTensor)
    if (Value *v = p->use().getGraph().lookupValue(uses.front()->getName()))
      return py::cast(makeValueRef(p, v));
  return argumentToPython(p, arg);
}

/// One InputSpec or OutputSpec, as a snapshot.
struct PySpec {
  std::string kind;
  std::string name;
  std::string target;
  bool persistent = false;
  py::object value;
};

struct PySignature {
  ProgramPtr program;
};

std::vector<PySpec> inputSpecs(const ProgramPtr &p) {
  std::vector<PySpec> out;
  for (const InputSpec &s : p->use().graphModule.signature.inputSpecs) {
    PySpec spec;
    spec.kind = s.kind == InputKind::Unknown
                    ? s.unknownKey
                    : inputKindMemberName(s.kind).str();
    spec.name = s.getArgName().str();
    spec.target = s.target.str();
    spec.persistent = s.persistent;
    spec.value = detachedToPython(p, s.arg);
    out.push_back(std::move(spec));
  }
  return out;
}

std::vector<PySpec> outputSpecs(const ProgramPtr &p) {
  std::vector<PySpec> out;
  for (const OutputSpec &s : p->use().graphModule.signature.outputSpecs) {
    PySpec spec;
    spec.kind = s.kind == OutputKind::Unknown
                    ? s.unknownKey
                    : outputKindMemberName(s.kind).str();
    spec.name = s.getArgName().str();
    spec.target = s.target.str();
    spec.value = detachedToPython(p, s.arg);
    out.push_back(std::move(spec));
  }
  return out;
}

std::vector<PySpec> ofKind(std::vector<PySpec> specs, const std::string &kind) {
  std::vector<PySpec> out;
  for (PySpec &s : specs)
    if (s.kind == kind)
      out.push_back(std::move(s));
  return out;
}

struct PyModuleCall {
  std::string fqn;
  py::list inputs;
  py::list outputs;
  std::optional<std::string> inSpec;
  std::optional<std::string> outSpec;
  std::optional<std::vector<std::string>> forwardArgNames;
};

struct PyPassRun {
  std::string name;
  bool changed = false;
  double seconds = 0;
  std::map<std::string, int64_t> statistics;
};

std::vector<PyPassRun> runPasses(const ProgramPtr &p,
                                 const std::string &pipeline, bool verify) {
  ExportedProgram &ep = p->use();
  PassManager pm(ep.getRegistryPtr());
  check(pm.addPipeline(pipeline), ErrorKind::Pass);
  std::string name = p->displayName.empty() ? "<program>" : p->displayName;
  pm.setVerifyHook(verify ? makeVerifierHook(name, verifyOptions(std::nullopt))
                          : VerifyHook());
  std::string report;
  llvm::raw_string_ostream os(report);
  pm.setDiagnosticStream(os);
  llvm::Error err = llvm::Error::success();
  {
    LongOperation op(*p, "run_passes");
    // Unbacked-symbol bindings are not stored in files: compute them first.
    if (auto bindErr = recomputeUnbackedBindings(ep))
      err = llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          name + ": error: " + llvm::toString(std::move(bindErr)));
    else
      err = pm.run(ep);
  }
  check(std::move(err), ErrorKind::Pass);
  std::vector<PyPassRun> runs;
  for (const PassRunRecord &r : pm.getRunRecords())
    runs.push_back(PyPassRun{r.name, r.changed, r.seconds, r.statistics});
  return runs;
}

} // namespace

void bindProgram(py::module_ &m) {
  py::class_<PySpec>(m, "Spec", "One entry of the graph signature.")
      .def_readonly(
          "kind", &PySpec::kind,
          "The schema's member name: `parameter`, `buffer`, `user_input`, "
          "`user_output`, `buffer_mutation`, ...")
      .def_readonly("name", &PySpec::name,
                    "The graph value it describes (empty for constants).")
      .def_readonly(
          "target", &PySpec::target,
          "The parameter / buffer / constant name (`fc.weight`), or the "
          "mutated input; empty when the kind has none.")
      .def_readonly("persistent", &PySpec::persistent, "For buffers.")
      .def_readonly("value", &PySpec::value,
                    "The Value (or, for constants, the constant).")
      .def("__repr__", [](const PySpec &s) {
        std::string text = "<pt2ir.Spec " + s.kind + " " + s.name;
        if (!s.target.empty())
          text += " -> " + s.target;
        return text + ">";
      });

  auto inputsOf = [](const char *kind) {
    return [kind](const PySignature &s) {
      return ofKind(inputSpecs(s.program), kind);
    };
  };
  auto outputsOf = [](const char *kind) {
    return [kind](const PySignature &s) {
      return ofKind(outputSpecs(s.program), kind);
    };
  };
  py::class_<PySignature>(m, "Signature",
                          "The graph signature: what each input and output is.")
      .def_property_readonly(
          "input_specs",
          [](const PySignature &s) { return inputSpecs(s.program); })
      .def_property_readonly(
          "output_specs",
          [](const PySignature &s) { return outputSpecs(s.program); })
      .def_property_readonly("parameters", inputsOf("parameter"))
      .def_property_readonly("buffers", inputsOf("buffer"))
      .def_property_readonly("user_inputs", inputsOf("user_input"))
      .def_property_readonly("tensor_constants", inputsOf("tensor_constant"))
      .def_property_readonly("custom_objs", inputsOf("custom_obj"))
      .def_property_readonly("constant_inputs", inputsOf("constant_input"))
      .def_property_readonly("input_tokens", inputsOf("token"))
      .def_property_readonly("user_outputs", outputsOf("user_output"))
      .def_property_readonly("buffer_mutations", outputsOf("buffer_mutation"))
      .def_property_readonly("user_input_mutations",
                             outputsOf("user_input_mutation"))
      .def_property_readonly("parameter_mutations",
                             outputsOf("parameter_mutation"))
      .def_property_readonly("loss_outputs", outputsOf("loss_output"))
      .def_property_readonly("output_tokens", outputsOf("token"))
      .def(
          "inputs_of",
          [](const PySignature &s, const std::string &kind) {
            return ofKind(inputSpecs(s.program), kind);
          },
          py::arg("kind"))
      .def(
          "outputs_of",
          [](const PySignature &s, const std::string &kind) {
            return ofKind(outputSpecs(s.program), kind);
          },
          py::arg("kind"));

  py::class_<PyModuleCall>(m, "ModuleCall",
                           "One entry of the module call graph.")
      .def_readonly("fqn", &PyModuleCall::fqn)
      .def_readonly("inputs", &PyModuleCall::inputs)
      .def_readonly("outputs", &PyModuleCall::outputs)
      .def_readonly("in_spec", &PyModuleCall::inSpec)
      .def_readonly("out_spec", &PyModuleCall::outSpec)
      .def_readonly("forward_arg_names", &PyModuleCall::forwardArgNames)
      .def("__repr__", [](const PyModuleCall &c) {
        return "<pt2ir.ModuleCall '" + c.fqn + "'>";
      });

  py::class_<Diagnostic>(m, "Diagnostic", "One finding of the verifier.")
      .def_property_readonly(
          "severity",
          [](const Diagnostic &d) { return severityName(d.severity).str(); })
      .def_readonly("rule", &Diagnostic::rule)
      .def_readonly("message", &Diagnostic::message)
      .def_readonly("json_path", &Diagnostic::jsonPath)
      .def_readonly("node", &Diagnostic::nodeName)
      .def("__str__",
           [](const Diagnostic &d) { return formatDiagnosticBody(d); })
      .def("__repr__", [](const Diagnostic &d) {
        return "<pt2ir.Diagnostic " + formatDiagnosticBody(d) + ">";
      });

  py::class_<PyPassRun>(m, "PassRun", "What one pass of run_passes did.")
      .def_readonly("name", &PyPassRun::name)
      .def_readonly("changed", &PyPassRun::changed)
      .def_readonly("seconds", &PyPassRun::seconds)
      .def_readonly("statistics", &PyPassRun::statistics)
      .def("__repr__", [](const PyPassRun &r) {
        return "<pt2ir.PassRun " + r.name +
               (r.changed ? " changed>" : " unchanged>");
      });

  py::class_<PyProgram, ProgramPtr>(m, "Program", "An exported program.")
      .def_property_readonly("graph",
                             [](const ProgramPtr &p) {
                               return makeGraphRef(p, &p->use().getGraph());
                             })
      .def_property_readonly("signature",
                             [](const ProgramPtr &p) { return PySignature{p}; })
      .def_property_readonly(
          "range_constraints",
          [](const ProgramPtr &p) {
            py::dict out;
            for (const auto &[symbol, range] : p->use().rangeConstraints)
              out[py::str(symbol.str())] = py::make_tuple(
                  range.minVal ? py::object(py::int_(*range.minVal))
                               : py::none(),
                  range.maxVal ? py::object(py::int_(*range.maxVal))
                               : py::none());
            return out;
          },
          "{symbol: (min, max)}, None for an unbounded end.")
      .def_property_readonly(
          "module_call_graph",
          [](const ProgramPtr &p) {
            std::vector<PyModuleCall> out;
            for (const ModuleCallEntry &e :
                 p->use().graphModule.moduleCallGraph) {
              PyModuleCall call;
              call.fqn = e.fqn.str();
              if (e.signature) {
                for (const Argument &a : e.signature->inputs)
                  call.inputs.append(detachedToPython(p, a));
                for (const Argument &a : e.signature->outputs)
                  call.outputs.append(detachedToPython(p, a));
                call.inSpec = e.signature->inSpec;
                call.outSpec = e.signature->outSpec;
                if (e.signature->forwardArgNames) {
                  call.forwardArgNames.emplace();
                  for (llvm::StringRef n : *e.signature->forwardArgNames)
                    call.forwardArgNames->push_back(n.str());
                }
              }
              out.push_back(std::move(call));
            }
            return out;
          })
      .def_property_readonly("schema_version",
                             [](const ProgramPtr &p) {
                               return py::make_tuple(
                                   p->use().schemaVersion.major,
                                   p->use().schemaVersion.minor);
                             })
      .def_property_readonly(
          "torch_version",
          [](const ProgramPtr &p) { return p->use().torchVersion; })
      .def_property_readonly("verifiers",
                             [](const ProgramPtr &p) {
                               std::vector<std::string> out;
                               for (llvm::StringRef v : p->use().verifiers)
                                 out.push_back(v.str());
                               return out;
                             })
      .def_property_readonly("opset_version",
                             [](const ProgramPtr &p) {
                               py::dict out;
                               for (const auto &[ns, v] : p->use().opsetVersion)
                                 out[py::str(ns.str())] = v;
                               return out;
                             })
      .def_property_readonly(
          "model_name", [](const ProgramPtr &p) { return p->modelName; },
          "The model's name in its archive; empty for JSON.")
      .def_property_readonly("path",
                             [](const ProgramPtr &p) { return p->path; })
      .def_property_readonly(
          "registry",
          [](const ProgramPtr &p) {
            return std::make_shared<PyRegistry>(p->use().getRegistryPtr());
          },
          "The (read-only) registry the program was loaded with.")
      .def("save", &save, py::arg("path"),
           "Writes the program: a `.pt2` path gets an archive (the loaded "
           "archive's other entries kept), any other path JSON. Atomic.")
      .def("dumps", &dumps, "The program's JSON, as torch writes it.")
      .def("verify", &verify, py::arg("dialect") = py::none(),
           "Runs the verifier (under `dialect`, 'ATEN' or 'TRAINING', else the "
           "program's own) and returns every finding, errors and warnings.")
      .def("run_passes", &runPasses, py::arg("pipeline"),
           py::arg("verify") = true,
           "Runs a pass pipeline (`dce,cse`, as pt2-opt's --pass-pipeline), "
           "verifying before and after each pass unless verify=False. Returns "
           "one PassRun per pass, with its statistics.")
      .def("__str__",
           [](const ProgramPtr &p) {
             std::string text;
             llvm::raw_string_ostream os(text);
             printProgram(os, p->use());
             return text;
           })
      .def("__repr__", [](const ProgramPtr &p) {
        return "<pt2ir.Program " +
               (p->displayName.empty() ? std::string("(built)")
                                       : p->displayName) +
               ": " + std::to_string(p->use().getGraph().size()) + " nodes>";
      });

  m.def("load", &load, py::arg("path"), py::arg("model") = py::none(),
        py::kw_only(), py::arg("registry") = nullptr,
        "Reads a program from a JSON file or a `.pt2` archive (`model` picks "
        "one of several).");
  m.def("loads", &loads, py::arg("data"), py::kw_only(),
        py::arg("registry") = nullptr,
        "Reads a program from its JSON text (str or bytes).");
}

} // namespace pt2ir::python
