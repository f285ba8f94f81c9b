"""Programs on different threads run at once; one program is never used by
two threads at once (the second gets pt2ir.Error: the program is busy)."""

import concurrent.futures
import threading

import pytest

import pt2ir


def work(path):
    program = pt2ir.load(str(path))
    nodes = program.graph.nodes
    last = nodes[-1]
    if last.value is not None and last.value.type == "Tensor":
        program.graph.call_function("aten::neg", (last,), meta_like=last)  # dead: dce erases it
    runs = program.run_passes("dce")
    diagnostics = [str(d) for d in program.verify()]
    return [r.statistics for r in runs], diagnostics, program.dumps()


def test_programs_on_threads_give_what_they_give_alone(corpus):
    paths = sorted(corpus.glob("*.json")) * 3
    alone = [work(p) for p in paths]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        together = list(pool.map(work, paths))
    assert together == alone
    assert alone[0][0] == [{"nodes-erased": 1}]


def test_a_program_busy_on_another_thread_raises_instead_of_racing(corpus):
    program = pt2ir.load(str(corpus / "lstm.json"))
    node = program.graph.nodes[0]
    done = threading.Event()
    errors = []

    def passes():
        try:
            for _ in range(30):
                program.run_passes("dce,dce")
                program.verify()
        except BaseException as e:  # noqa: B902 - reported below
            errors.append(e)
        finally:
            done.set()

    thread = threading.Thread(target=passes)
    thread.start()
    attempts = busy = 0
    while not done.is_set():
        attempts += 1
        try:
            len(program.graph.nodes)
            node.name
        except pt2ir.Error as e:
            assert "the program is busy: another thread is running" in str(e)
            busy += 1
    thread.join()
    # The other thread may itself have found the program busy (this thread
    # was reading it); anything else is a failure.
    for e in errors:
        assert isinstance(e, pt2ir.Error) and "busy" in str(e), e
    # The passes release the GIL: this thread ran meanwhile and was refused.
    assert busy > 0
    assert len(program.graph) > 0
