# lit configuration for pt2ir: every .test/.json/.py file under test/lit runs
# its RUN lines with pt2-opt, FileCheck, not and split-file on PATH.
import os
import lit.formats

config.name = "pt2ir"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.pt2ir_obj_root, "test", "lit")

path = os.pathsep.join([config.pt2ir_tools_dir, config.llvm_tools_dir,
                        config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["PATH"] = path
config.substitutions.append(("%cmp-json", config.python_executable + " " + os.path.join(os.path.dirname(__file__), "Inputs", "cmp-json.py")))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%plugins", config.pt2ir_plugins_dir))
config.substitutions.append(("%corpus", os.path.join(config.pt2ir_src_root, "test", "corpus")))
config.substitutions.append(("%examples", os.path.join(config.pt2ir_src_root, "examples")))
