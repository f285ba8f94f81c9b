//===- PassManagerTest.cpp - Tests for the registry and the pass manager --===//
//
// Covers the registry built from PassRegistry.def (names, options,
// factories), creating passes by name and its errors, the pipeline syntax,
// the pass manager's ordering, verification hook, IR dumps, timing and
// statistics reports, runPassPipeline's file-prefixed errors, and the
// pt2-opt flags (PassCLOptions) including per-pass flag ordering.
//
//===----------------------------------------------------------------------===//

#include "PassTestPrograms.h"

#include "pt2ir/passes/PassManager.h"
#include "pt2ir/passes/PassRegistry.h"
#include "pt2ir/passes/Passes.h"
#include "pt2ir/tools/lib/PassPipelineOptions.h"

#include "llvm/Support/CommandLine.h"

#include <gtest/gtest.h>

#include <set>

using namespace pt2ir;
using namespace pt2ir::testing;

namespace {

std::string errorText(llvm::Error err) {
  return err ? llvm::toString(std::move(err)) : std::string();
}

//===----------------------------------------------------------------------===//
// Registry
//===----------------------------------------------------------------------===//

TEST(PassRegistryTest, EveryDefEntryIsRegisteredOnceAndCreatesItself) {
  size_t defPasses = 0
#define PT2IR_PASS(NAME, CLASS, SUMMARY) +1
#include "pt2ir/passes/PassRegistry.def"
      ;
  size_t defOptions = 0
#define PT2IR_PASS_OPTION(CLASS, NAME, DEFAULT, DESCRIPTION) +1
#include "pt2ir/passes/PassRegistry.def"
      ;
  ASSERT_EQ(getBuiltinPasses().size(), defPasses);
  std::set<std::string> names;
  size_t options = 0;
  for (const PassInfo &info : getBuiltinPasses()) {
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    EXPECT_FALSE(info.summary.empty()) << info.name;
    EXPECT_EQ(lookupPass(*Registry::getDefault(), info.name), &info);
    std::unique_ptr<Pass> pass = info.create();
    ASSERT_NE(pass, nullptr);
    EXPECT_EQ(pass->getName(), info.name);
    std::set<std::string> optionNames;
    for (const PassOptionInfo &o : info.options) {
      EXPECT_TRUE(optionNames.insert(o.name).second) << o.name;
      EXPECT_EQ(info.findOption(o.name), &o);
      EXPECT_FALSE(o.description.empty());
      // Every default is accepted by the pass.
      EXPECT_EQ(
          errorText(pass->setOptions({{o.name, o.defaultValue}})),
          "");
    }
    options += info.options.size();
  }
  // Options of a pass must follow its PT2IR_PASS line; a stray one would be
  // missed here.
  EXPECT_EQ(options, defOptions);
  EXPECT_TRUE(names.count("dce"));
  EXPECT_TRUE(names.count("canonicalize-symbols"));
  EXPECT_EQ(lookupPass(*Registry::getDefault(), "nope"), nullptr);
  EXPECT_EQ(createDeadCodeEliminationPass()->getName(), "dce");
  EXPECT_EQ(createCanonicalizeSymbolsPass()->getName(), "canonicalize-symbols");
}

TEST(PassRegistryTest, DceOptionsAreListedWithDefaults) {
  const PassInfo *dce = lookupPass(*Registry::getDefault(), "dce");
  ASSERT_NE(dce, nullptr);
  std::vector<std::string> got;
  for (const PassOptionInfo &o : dce->options)
    got.push_back(o.name + "=" + o.defaultValue);
  EXPECT_EQ(got, (std::vector<std::string>{"remove-asserts=false",
                                           "keep-random=false",
                                           "hop-impure-bodies=true"}));
  std::string help;
  llvm::raw_string_ostream os(help);
  printRegisteredPasses(os, *Registry::getDefault());
  EXPECT_NE(help.find("  dce - "), std::string::npos);
  EXPECT_NE(help.find("      remove-asserts=<false> - "), std::string::npos);
}

TEST(PassRegistryTest, CreatePassErrorsSayWhatExists) {
  auto unknown = createPass(*Registry::getDefault(), "dse");
  ASSERT_FALSE(bool(unknown));
  std::string message = errorText(unknown.takeError());
  EXPECT_EQ(
      message.rfind(
          "unknown pass 'dse'; registered passes: dce, canonicalize-symbols",
          0),
      0u)
      << message;

  auto noOptions = createPass(*Registry::getDefault(), "canonicalize-symbols", {{"x", "1"}});
  EXPECT_EQ(
      errorText(noOptions.takeError()),
      "pass 'canonicalize-symbols' has no option 'x': it takes no options");
  auto twice =
      createPass(*Registry::getDefault(), "dce", {{"keep-random", "true"}, {"keep-random", "false"}});
  EXPECT_EQ(errorText(twice.takeError()),
            "pass 'dce': option 'keep-random' is given more than once");
  auto good =
      createPass(*Registry::getDefault(), "dce", {{"remove-asserts", "1"}, {"hop-impure-bodies", "0"}});
  EXPECT_TRUE(bool(good)) << errorText(good.takeError());
}

TEST(PassRegistryTest, ParseBoolOption) {
  EXPECT_TRUE(*parseBoolPassOption("p", "o", "true"));
  EXPECT_TRUE(*parseBoolPassOption("p", "o", "1"));
  EXPECT_FALSE(*parseBoolPassOption("p", "o", "false"));
  EXPECT_FALSE(*parseBoolPassOption("p", "o", "0"));
  auto bad = parseBoolPassOption("p", "o", "TRUE");
  EXPECT_EQ(errorText(bad.takeError()),
            "pass 'p': option 'o' expects true or false, got 'TRUE'");
}

//===----------------------------------------------------------------------===//
// Pipeline syntax
//===----------------------------------------------------------------------===//

TEST(PassPipelineTest, ParsesNamesAndOptions) {
  auto p = parsePassPipeline(
      " dce{remove-asserts=true keep-random=false, hop-impure-bodies} ,"
      "canonicalize-symbols,dce{}");
  ASSERT_TRUE(bool(p)) << errorText(p.takeError());
  ASSERT_EQ(p->size(), 3u);
  EXPECT_EQ((*p)[0].name, "dce");
  EXPECT_EQ((*p)[0].options, (PassOptions{{"remove-asserts", "true"},
                                          {"keep-random", "false"},
                                          {"hop-impure-bodies", "true"}}));
  EXPECT_EQ((*p)[1].name, "canonicalize-symbols");
  EXPECT_TRUE((*p)[1].options.empty());
  EXPECT_TRUE((*p)[2].options.empty());
  EXPECT_EQ(printPassPipeline(*p),
            "dce{remove-asserts=true keep-random=false hop-impure-bodies=true},"
            "canonicalize-symbols,dce");
  auto again = parsePassPipeline(printPassPipeline(*p));
  ASSERT_TRUE(bool(again));
  EXPECT_EQ(printPassPipeline(*again), printPassPipeline(*p));
}

TEST(PassPipelineTest, SyntaxErrorsGiveTheColumn) {
  auto err = [](llvm::StringRef text) {
    auto p = parsePassPipeline(text);
    return p ? std::string("<parsed>") : errorText(p.takeError());
  };
  EXPECT_EQ(err(""), "pass pipeline, column 1: the pipeline is empty; expected "
                     "a pass name in ''");
  EXPECT_EQ(err("dce,"),
            "pass pipeline, column 5: expected a pass name in 'dce,'");
  EXPECT_EQ(err("dce{a=1"), "pass pipeline, column 8: expected '}' to close "
                            "the options of 'dce' in 'dce{a=1'");
  EXPECT_EQ(err("dce{=1}"),
            "pass pipeline, column 5: expected an option name in 'dce{=1}'");
  EXPECT_EQ(
      err("dce{a=}"),
      "pass pipeline, column 7: expected a value after 'a=' in 'dce{a=}'");
  EXPECT_EQ(err("dce}"), "pass pipeline, column 4: expected ',' or the end of "
                         "the pipeline in 'dce}'");
  EXPECT_EQ(err("{x}"),
            "pass pipeline, column 1: expected a pass name in '{x}'");
}

//===----------------------------------------------------------------------===//
// Pass manager
//===----------------------------------------------------------------------===//

/// A pass that records its runs in a shared log, optionally changes the
/// program (by renaming nothing: it only reports), or fails.
class ScriptedPass : public Pass {
public:
  ScriptedPass(std::string name, bool changes, std::vector<std::string> &log,
               bool fails = false)
      : name(std::move(name)), changes(changes), fails(fails), log(log) {}
  llvm::StringRef getName() const override { return name; }
  llvm::Expected<bool> run(ExportedProgram &, PassContext &) override {
    log.push_back("run " + name);
    addStatistic("runs");
    addStatistic("things", 2);
    if (fails)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "it broke");
    return changes;
  }

private:
  std::string name;
  bool changes, fails;
  std::vector<std::string> &log;
};

ExportedProgram smallProgram() {
  GraphSpec g;
  g.inputs = {"x"};
  g.nodes = {nodeJson("torch.ops.aten.relu.default", {{"self", tensorArg("x")}},
                      {tensorArg("relu")}, "relu"),
             nodeJson("torch.ops.aten.neg.default", {{"self", tensorArg("x")}},
                      {tensorArg("neg")}, "neg")};
  g.outputs = {"relu"};
  g.f32({"x", "relu", "neg"});
  return readOrFail(programJson(g));
}

TEST(PassManagerTest, RunsInOrderAndVerifiesTheInputAndChangedPasses) {
  std::vector<std::string> log;
  PassManager pm;
  pm.addPass(std::make_unique<ScriptedPass>("a", true, log));
  pm.addPass(std::make_unique<ScriptedPass>("b", false, log));
  pm.addPass(std::make_unique<ScriptedPass>("c", true, log));
  pm.setVerifyHook([&](const ExportedProgram &) {
    log.push_back("verify");
    return llvm::Error::success();
  });
  EXPECT_EQ(pm.getPassNames(), (std::vector<std::string>{"a", "b", "c"}));
  ExportedProgram ep = smallProgram();
  ASSERT_EQ(errorText(pm.run(ep)), "");
  EXPECT_EQ(log, (std::vector<std::string>{"verify", "run a", "verify", "run b",
                                           "run c", "verify"}));
  ASSERT_EQ(pm.getRunRecords().size(), 3u);
  EXPECT_TRUE(pm.getRunRecords()[0].changed);
  EXPECT_FALSE(pm.getRunRecords()[1].changed);
  // Statistics are reset before each run.
  ASSERT_FALSE(bool(pm.run(ep)));
  EXPECT_EQ(pm.getRunRecords()[0].statistics.at("runs"), 1);
  EXPECT_EQ(pm.getRunRecords()[0].statistics.at("things"), 2);

  // verifyInput=false: only after changing passes.
  log.clear();
  PassInstrumentation noInput;
  noInput.verifyInput = false;
  ASSERT_FALSE(bool(pm.setInstrumentation(noInput)));
  ASSERT_FALSE(bool(pm.run(ep)));
  EXPECT_EQ(log, (std::vector<std::string>{"run a", "verify", "run b", "run c",
                                           "verify"}));

  // verifyEach=false: no hook calls.
  log.clear();
  PassInstrumentation instr;
  instr.verifyEach = false;
  ASSERT_FALSE(bool(pm.setInstrumentation(instr)));
  ASSERT_FALSE(bool(pm.run(ep)));
  EXPECT_EQ(log, (std::vector<std::string>{"run a", "run b", "run c"}));
}

TEST(PassManagerTest, ErrorsNameThePassAndStopTheRun) {
  std::vector<std::string> log;
  PassManager failing;
  failing.addPass(
      std::make_unique<ScriptedPass>("a", true, log, /*fails=*/true));
  failing.addPass(std::make_unique<ScriptedPass>("b", true, log));
  ExportedProgram ep = smallProgram();
  EXPECT_EQ(errorText(failing.run(ep)), "pass 'a' failed: it broke");
  EXPECT_EQ(log, std::vector<std::string>{"run a"});

  int calls = 0;
  PassManager verifying;
  verifying.addPass(std::make_unique<ScriptedPass>("a", false, log));
  verifying.addPass(std::make_unique<ScriptedPass>("b", true, log));
  verifying.setVerifyHook([&](const ExportedProgram &) -> llvm::Error {
    if (++calls == 1)
      return llvm::Error::success();
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "f: error: bad\nf: error: worse");
  });
  EXPECT_EQ(
      errorText(verifying.run(ep)),
      "verification failed after pass 'b':\nf: error: bad\nf: error: worse");

  PassManager badInput;
  badInput.addPass(std::make_unique<ScriptedPass>("a", true, log));
  badInput.setVerifyHook([](const ExportedProgram &) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "nope");
  });
  EXPECT_EQ(
      errorText(badInput.run(ep)),
      "the input program fails verification before the first pass:\nnope");
}

TEST(PassManagerTest, AddPipelineCreatesRegisteredPassesOrNothing) {
  PassManager pm;
  ASSERT_EQ(errorText(pm.addPipeline(
                "dce{remove-asserts=true},canonicalize-symbols")),
            "");
  EXPECT_EQ(pm.getPassNames(),
            (std::vector<std::string>{"dce", "canonicalize-symbols"}));
  // A bad element adds nothing, even after good ones.
  EXPECT_NE(errorText(pm.addPipeline("dce,dse")), "");
  EXPECT_EQ(pm.size(), 2u);
  EXPECT_NE(errorText(pm.addPipeline("dce{")), "");
  EXPECT_EQ(pm.size(), 2u);
}

TEST(PassManagerTest, DumpsIRBeforeAndAfterChosenPasses) {
  std::vector<std::string> log;
  PassManager pm;
  ASSERT_FALSE(bool(pm.addPipeline("dce,dce")));
  std::string out;
  llvm::raw_string_ostream os(out);
  pm.setDiagnosticStream(os);
  PassInstrumentation instr;
  instr.printIRBefore = {"dce"};
  instr.printIRAfterChange = true;
  ASSERT_FALSE(bool(pm.setInstrumentation(instr)));
  ExportedProgram ep = smallProgram();
  ASSERT_EQ(errorText(pm.run(ep)), "");
  os.flush();
  // Two "before" dumps, one "after" dump (only the first dce changed).
  size_t before1 = out.find("// -----// IR Dump Before dce //----- //\n");
  size_t after = out.find("// -----// IR Dump After dce //----- //\n");
  size_t before2 =
      out.find("// -----// IR Dump Before dce //----- //\n", before1 + 1);
  ASSERT_NE(before1, std::string::npos) << out;
  ASSERT_NE(after, std::string::npos) << out;
  ASSERT_NE(before2, std::string::npos) << out;
  EXPECT_LT(before1, after);
  EXPECT_LT(after, before2);
  EXPECT_EQ(out.find("IR Dump After", after + 20), std::string::npos);
  // The first dump still has neg; the one after dce does not.
  EXPECT_LT(out.find("%neg = aten.neg.default"), after);
  EXPECT_EQ(out.find("%neg = aten.neg.default", after), std::string::npos);

  PassInstrumentation badName;
  badName.printIRAfter = {"dse"};
  std::string message = errorText(pm.setInstrumentation(badName));
  EXPECT_EQ(
      message.rfind(
          "--print-ir-after: unknown pass 'dse'; registered passes: dce", 0),
      0u)
      << message;
}

TEST(PassManagerTest, PrintsTimingAndStatisticsReports) {
  std::vector<std::string> log;
  PassManager pm;
  pm.addPass(std::make_unique<ScriptedPass>("a", true, log));
  pm.addPass(std::make_unique<ScriptedPass>("b", false, log));
  std::string out;
  llvm::raw_string_ostream os(out);
  pm.setDiagnosticStream(os);
  PassInstrumentation instr;
  instr.timePasses = true;
  instr.passStatistics = true;
  ASSERT_FALSE(bool(pm.setInstrumentation(instr)));
  ExportedProgram ep = smallProgram();
  ASSERT_FALSE(bool(pm.run(ep)));
  os.flush();
  EXPECT_NE(out.find("... Pass execution timing report ..."), std::string::npos)
      << out;
  EXPECT_NE(out.find("  Total Execution Time: "), std::string::npos);
  EXPECT_NE(out.find("%)  a\n"), std::string::npos);
  EXPECT_NE(out.find("%)  b\n"), std::string::npos);
  EXPECT_NE(out.find("(100.0%)  Total\n"), std::string::npos);
  // The default verifier runs, and gets its own row.
  EXPECT_NE(out.find("%)  (verifier)\n"), std::string::npos) << out;
  EXPECT_NE(out.find("... Pass statistics report ..."), std::string::npos);
  EXPECT_NE(out.find("a\n  (S) 1 runs\n  (S) 2 things\nb (no change)\n"),
            std::string::npos)
      << out;
}

TEST(PassManagerTest, RunPassPipelinePrefixesErrorsWithTheFile) {
  ExportedProgram ep = smallProgram();
  PassPipelineConfig config;
  config.pipeline = {PassPipelineElement{"dse", {}}};
  std::string message =
      errorText(runPassPipeline(ep, "m.json", config, nullptr));
  EXPECT_EQ(message.rfind("m.json: error: unknown pass 'dse'", 0), 0u)
      << message;

  // No passes: nothing runs, not even the verifier.
  int calls = 0;
  VerifyHook hook = [&](const ExportedProgram &) {
    ++calls;
    return llvm::Error::success();
  };
  PassPipelineConfig empty;
  EXPECT_EQ(errorText(runPassPipeline(ep, "m.json", empty, hook)), "");
  EXPECT_EQ(calls, 0);

  PassPipelineConfig dce;
  dce.pipeline = {PassPipelineElement{"dce", {}}};
  std::string diag;
  llvm::raw_string_ostream os(diag);
  dce.instrumentation.passStatistics = true;
  EXPECT_EQ(errorText(runPassPipeline(ep, "m.json", dce, hook, os)), "");
  os.flush();
  EXPECT_EQ(calls, 2); // The input, and after dce changed it.

  // From the command line, the input is not verified again.
  ExportedProgram again = smallProgram();
  calls = 0;
  dce.instrumentation.verifyInput = false;
  EXPECT_EQ(errorText(runPassPipeline(again, "m.json", dce, hook, os)), "");
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(nodeNames(ep.getGraph()), std::vector<std::string>{"relu"});
  EXPECT_NE(diag.find("dce\n  (S) 1 nodes-erased\n"), std::string::npos)
      << diag;
}

TEST(PassManagerTest, TheVerifierHookReportsDiagnostics) {
  ExportedProgram ep = smallProgram();
  VerifyHook hook = makeVerifierHook("m.json");
  EXPECT_EQ(errorText(hook(ep)), "");
  ep.graphModule.moduleCallGraph.clear();
  std::string message = errorText(hook(ep));
  EXPECT_NE(message.find("m.json: error: "), std::string::npos) << message;
}

//===----------------------------------------------------------------------===//
// pt2-opt flags
//===----------------------------------------------------------------------===//

TEST(PassCLOptionsTest, FlagsBecomeAPipelineInCommandLineOrder) {
  llvm::cl::OptionCategory category("test");
  PassCLOptions options(category, *Registry::getDefault());
  const char *argv[] = {"pt2-opt",
                        "--canonicalize-symbols",
                        "--pass-pipeline=dce{keep-random=true},dce",
                        "--print-ir-after=dce,canonicalize-symbols",
                        "--print-ir-before=dce",
                        "--print-ir-after-change",
                        "--verify-each=false",
                        "--time-passes",
                        "--pass-statistics"};
  std::string errors;
  llvm::raw_string_ostream errs(errors);
  ASSERT_TRUE(
      llvm::cl::ParseCommandLineOptions(std::size(argv), argv, "", &errs))
      << errors;
  auto config = options.getConfig();
  ASSERT_TRUE(bool(config)) << errorText(config.takeError());
  EXPECT_EQ(printPassPipeline(config->pipeline),
            "canonicalize-symbols,dce{keep-random=true},dce");
  const PassInstrumentation &instr = config->instrumentation;
  EXPECT_FALSE(instr.verifyEach);
  EXPECT_FALSE(instr.verifyInput); // pt2-opt verifies what it reads itself.
  EXPECT_EQ(instr.printIRAfter,
            (std::vector<std::string>{"dce", "canonicalize-symbols"}));
  EXPECT_EQ(instr.printIRBefore, std::vector<std::string>{"dce"});
  EXPECT_TRUE(instr.printIRAfterChange);
  EXPECT_FALSE(instr.printIRAfterAll);
  EXPECT_TRUE(instr.timePasses);
  EXPECT_TRUE(instr.passStatistics);
  // The help text lists every pass with its options.
  EXPECT_NE(options.pipelineHelp.find("hop-impure-bodies=<true>"),
            std::string::npos);
  llvm::cl::ResetAllOptionOccurrences();
}

} // namespace

//===----------------------------------------------------------------------===//
// Passes registered at run time, and the one registry
//===----------------------------------------------------------------------===//

namespace {
/// A pass defined outside pt2ir: counts the nodes, changes nothing.
class CountNodesPass final : public Pass {
public:
  llvm::StringRef getName() const override { return "count-nodes"; }
  llvm::Error setOptions(const PassOptions &options) override {
    for (const auto &[name, value] : options)
      if (name != "scale")
        return makeUnknownPassOptionError(getName(), name);
      else
        scale = std::stoi(value);
    return llvm::Error::success();
  }
  llvm::Expected<bool> run(ExportedProgram &ep, PassContext &) override {
    addStatistic("nodes", scale * int64_t(ep.getGraph().size()));
    return false;
  }

private:
  int scale = 1;
};
} // namespace

TEST(RegisteredPassTest, WorksLikeABuiltinPassInItsRegistryOnly) {
  auto registry = std::make_shared<Registry>();
  ASSERT_EQ(errorText(registerPass<CountNodesPass>(
                *registry, "count-nodes", "Count nodes",
                {{"scale", "1", "Multiply the count"}})),
            "");
  const PassInfo *info = lookupPass(*registry, "count-nodes");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(getRegisteredPasses(*registry).back(), info);
  EXPECT_NE(lookupPass(*registry, "dce"), nullptr);
  EXPECT_EQ(lookupPass(*Registry::getDefault(), "count-nodes"), nullptr);
  EXPECT_NE(listRegisteredPassNames(*registry).find(", count-nodes"),
            std::string::npos);
  std::string help;
  llvm::raw_string_ostream os(help);
  printRegisteredPasses(os, *registry);
  EXPECT_NE(help.find("  count-nodes - Count nodes\n      scale=<1> - "),
            std::string::npos)
      << help;

  // In a pipeline, with an option, next to a built-in pass.
  PassManager pm(registry);
  ASSERT_EQ(errorText(pm.addPipeline("count-nodes{scale=3},dce")), "");
  PassInstrumentation instr;
  instr.printIRAfter = {"count-nodes"};
  ASSERT_EQ(errorText(pm.setInstrumentation(instr)), "");
  std::string dumps;
  llvm::raw_string_ostream dumpStream(dumps);
  pm.setDiagnosticStream(dumpStream);
  ExportedProgram ep = readOrFail(programJson([] {
    GraphSpec g;
    g.inputs = {"x"};
    g.nodes = {nodeJson("torch.ops.aten.relu.default",
                        {{"self", tensorArg("x")}}, {tensorArg("relu")},
                        "relu")};
    g.outputs = {"relu"};
    g.f32({"x", "relu"});
    return g;
  }()),
                                registry);
  ASSERT_EQ(errorText(pm.run(ep)), "");
  EXPECT_EQ(pm.getRunRecords()[0].statistics.at("nodes"), 3);
  EXPECT_NE(dumps.find("IR Dump After count-nodes"), std::string::npos);

  // Unknown options are caught before the pass sees them.
  EXPECT_EQ(errorText(createPass(*registry, "count-nodes", {{"x", "1"}})
                          .takeError()),
            "pass 'count-nodes' has no option 'x'; its options are: scale");
}

TEST(RegisteredPassTest, BadRegistrationsAreRefused) {
  Registry registry;
  EXPECT_EQ(errorText(registerPass<CountNodesPass>(registry, "dce", "x")),
            "cannot register pass 'dce': a pass of that name is already "
            "registered");
  EXPECT_EQ(errorText(registerPass<CountNodesPass>(registry, "other", "x")),
            "cannot register pass 'other': its factory makes a pass named "
            "'count-nodes'");
  EXPECT_EQ(errorText(registerPass<CountNodesPass>(registry, "bad name", "x")),
            "cannot register pass 'bad name': a pass name is letters, "
            "digits, '-', '_' and '.'");
  EXPECT_EQ(errorText(registerPass(registry, PassInfo{"no-factory", "", {}, {}})),
            "cannot register pass 'no-factory': it has no factory");
  ASSERT_EQ(errorText(registerPass<CountNodesPass>(registry, "count-nodes", "x")),
            "");
  EXPECT_EQ(errorText(registerPass<CountNodesPass>(registry, "count-nodes", "x")),
            "cannot register pass 'count-nodes': a pass of that name is "
            "already registered");
}

TEST(RegistryTest, ProgramsCarryTheirRegistryAndThePassManagerChecksIt) {
  auto registry = std::make_shared<Registry>();
  ExportedProgram built(registry);
  EXPECT_EQ(&built.getRegistry(), registry.get());
  EXPECT_EQ(&built.clone().getRegistry(), registry.get());
  ExportedProgram plain;
  EXPECT_EQ(&plain.getRegistry(), Registry::getDefault().get());

  PassManager defaultManager;
  defaultManager.addPass(createDeadCodeEliminationPass());
  EXPECT_EQ(errorText(defaultManager.run(built)),
            "the program was read or built with another registry than the "
            "pass manager's; create the PassManager with the program's "
            "registry (PassManager(program.getRegistryPtr()))");
  PassManager matching(built.getRegistryPtr());
  matching.addPass(createDeadCodeEliminationPass());
  // The default verifier runs on the input: an empty program has no root
  // module call entry.
  EXPECT_NE(errorText(matching.run(built)).find("[module-call-graph-root]"),
            std::string::npos);
  matching.setVerifyHook({});
  EXPECT_EQ(errorText(matching.run(built)), "");
}

namespace {
struct BackendConfig final : RegistrySlot {
  static char ID;
  int level = 0;
};
char BackendConfig::ID = 0;
} // namespace

TEST(RegistryTest, SlotsAreCreatedOnceAndFoundByType) {
  Registry registry;
  EXPECT_EQ(registry.find<BackendConfig>(), nullptr);
  registry.getOrCreate<BackendConfig>().level = 3;
  EXPECT_EQ(registry.getOrCreate<BackendConfig>().level, 3);
  const Registry &view = registry;
  ASSERT_NE(view.find<BackendConfig>(), nullptr);
  EXPECT_EQ(view.find<BackendConfig>()->level, 3);
}
