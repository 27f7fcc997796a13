"""The asynchronous level on accelerators: a device-side record names the line and coordinate later,
with no host sync. The logic runs on CPU tensors here (the accelerator branch forced, the event a
no-op); the CUDA tests skip without CUDA."""
import subprocess
import sys
import textwrap

import pytest

torch = pytest.importorskip("torch")

from gather_lint.runtime import GatherLintError, checked, checker, device_records, values  # noqa: E402

cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")


@pytest.fixture
def accelerator_branch(monkeypatch):
    monkeypatch.setattr(checker, "_on_accelerator", lambda t: True)


def test_record_is_reported_at_the_next_checked_call_with_line_and_coordinate(accelerator_branch):
    x = torch.randn(3, 4)
    with checked():
        line = sys._getframe().f_lineno + 1  # what the checker queues for `x.gather(1, idx)` on CUDA:
        device_records.record(torch.tensor([[0], [9], [0]]), 0, 4, "gather", 1, wraps=False)
        with pytest.raises(GatherLintError) as info:
            x.gather(1, torch.zeros(3, 1, dtype=torch.long).expand(-1, 4))
    message = str(info.value)
    assert message.startswith("GL011 gather(): index values span [0, 9]")
    assert "largest bad value 9 at index[1, 0]" in message and f"{__file__}:{line}" in message


def test_torch_error_on_the_spot_carries_the_record_as_a_note(accelerator_branch):
    x = torch.randn(3, 4)
    with checked():
        line = sys._getframe().f_lineno + 2
        with pytest.raises(IndexError) as info:  # CPU's own error; a CUDA kernel fails later
            torch.nn.functional.embedding(torch.tensor([1, 7]), torch.randn(4, 2))
    notes = "\n".join(info.value.__notes__)
    assert "GL011 embedding()" in notes and "largest bad value 7 at index[1]" in notes and f"{__file__}:{line}" in notes


def test_device_assert_error_carries_the_record_as_a_note(accelerator_branch):
    x = torch.randn(3, 4)
    with pytest.raises(RuntimeError) as info:
        with checked():
            line = sys._getframe().f_lineno + 1
            x.gather(1, torch.tensor([[0], [0], [-100]]))  # on CPU the assert fires at once
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert "smallest bad value -100 at index[2, 0]" in notes and f"{__file__}:{line}" in notes


def test_take_along_dim_record_is_gl010(accelerator_branch, monkeypatch):
    monkeypatch.setattr(values, "assert_async", lambda *a: None)  # the device assert has not surfaced yet
    x = torch.randn(3, 4)
    with checked():
        torch.take_along_dim(x, torch.tensor([[1], [5], [0]]), dim=1)  # torch wraps: no error of its own
        with pytest.raises(GatherLintError, match=r"GL010 .*largest bad value 5 at index\[1, 0\]"):
            x.gather(1, torch.zeros(3, 1, dtype=torch.long).expand(-1, 4))


def test_valid_calls_leave_nothing_to_report(accelerator_branch):
    x = torch.randn(3, 4)
    with checked():
        for _ in range(3):
            out = x.gather(1, torch.tensor([[0], [3], [1]]).expand(-1, 2))
        assert device_records.explain_pending() == []
    assert torch.equal(out, torch.stack([x[0, [0, 0]], x[1, [3, 3]], x[2, [1, 1]]]))


@cuda
def test_cuda_valid_calls_never_sync():
    x = torch.randn(64, 128, device="cuda")
    idx = torch.randint(128, (64, 4), device="cuda")
    ids = torch.randint(64, (32,), device="cuda")
    table = torch.randn(64, 8, device="cuda")
    torch.cuda.synchronize()
    with checked():
        torch.cuda.set_sync_debug_mode("error")
        try:
            for _ in range(3):
                x.gather(1, idx)
                torch.nn.functional.embedding(ids, table)
                x.index_select(0, ids)
        finally:
            torch.cuda.set_sync_debug_mode(0)
    torch.cuda.synchronize()


@cuda
def test_cuda_device_assert_names_the_line_and_coordinate(tmp_path):
    script = tmp_path / "bad.py"
    script.write_text(textwrap.dedent("""\
        import torch
        x = torch.randn(4, 8, device="cuda")
        idx = torch.tensor([[0], [1], [11], [2]], device="cuda")
        y = x.gather(1, idx)
        print(y.sum().item())
    """))
    out = subprocess.run([sys.executable, "-m", "gather_lint.runtime", str(script)], capture_output=True, text=True)
    assert out.returncode != 0
    assert f"{script}:4" in out.stderr and "largest bad value 11 at index[2, 0]" in out.stderr


def test_index_fill_takes_negative_positions_on_the_device_path(accelerator_branch):
    x = torch.zeros(3, 4)
    with checked():
        out = x.index_fill(1, torch.tensor([-1, 0]), 5.0)  # valid: index_fill counts from the end
        assert device_records.explain_pending() == []
        with pytest.raises(IndexError) as info:  # CPU's own error; a CUDA kernel asserts later
            x.index_fill(1, torch.tensor([-5]), 5.0)
    assert "GL011 index_fill()" in info.value.__notes__[0] and "smallest bad value -5 at index[0]" in info.value.__notes__[0]
    assert torch.equal(out, torch.zeros(3, 4).index_fill(1, torch.tensor([3, 0]), 5.0))


def test_take_along_dim_wraps_silently_so_its_device_assert_stays(accelerator_branch):
    with checked(), pytest.raises(RuntimeError, match=r"GL010 take_along_dim\(\): index out of range \[0, 4\)"):
        torch.take_along_dim(torch.randn(3, 4), torch.tensor([[1], [5], [0]]), dim=1)


class _FailedQuery:
    """A CUDA event after a device-side assert: every query fails with the sticky error."""

    @staticmethod
    def query():
        raise RuntimeError("CUDA error: device-side assert triggered")


def test_after_a_device_assert_the_next_call_names_the_record(accelerator_branch, monkeypatch):
    monkeypatch.setattr(values, "assert_async", lambda *a: None)
    monkeypatch.setattr(device_records, "_DoneEvent", _FailedQuery)
    x = torch.randn(3, 4)
    with checked():
        torch.take_along_dim(x, torch.tensor([[0], [9], [0]]), dim=1)  # its device assert fires later
        with pytest.raises(GatherLintError, match=r"largest bad value 9 at index\[1, 0\]"):
            x.gather(1, torch.zeros(3, 1, dtype=torch.long))



def test_records_live_on_the_host_whatever_the_default_device(accelerator_branch, monkeypatch):
    # `torch.set_default_device("cuda")` is common: the ring must still be host memory (it is pinned there)
    monkeypatch.setattr(device_records, "_rings", {})
    x, idx = torch.randn(3, 4, device="cpu"), torch.tensor([[0], [3], [1]], device="cpu")
    torch.set_default_device("meta")
    try:
        with checked():
            x.gather(1, idx)
            assert device_records.explain_pending() == []
    finally:
        torch.set_default_device(None)


class _Running:
    """A CUDA event whose copy has not landed yet; waiting for it is what the test forbids."""

    @staticmethod
    def query():
        return False

    @staticmethod
    def synchronize():
        raise AssertionError("waited for the device")


def test_leaving_checked_does_not_wait_for_the_device(accelerator_branch, monkeypatch):
    monkeypatch.setattr(device_records, "_DoneEvent", _Running)
    x = torch.randn(3, 4)
    try:
        with checked():
            x.gather(1, torch.tensor([[0], [3], [1]]))
        assert device_records.has_pending()  # read later: the next checked call, an error or the exit
    finally:
        device_records._pending.clear()


@pytest.mark.parametrize("dtype", [torch.long, torch.int32])
def test_each_record_keeps_its_own_values_whatever_the_index_dtype(dtype):
    """Records made back to back each read their own index (every record writes its own row, on the
    device and on the host), and an int32 index is recorded as its values, not its bytes."""
    device_records.discard()
    indices = [torch.tensor([[3, -2], [1, 0]], dtype=dtype), torch.tensor([[0, 1], [2, 8]], dtype=dtype),
               torch.tensor([[4]], dtype=dtype)]
    for index in indices:
        device_records.record(index, 0, 4, "gather", 1, wraps=False)
    found = [r.violation_text() for r in list(device_records._pending)[-3:]]
    device_records.discard()
    assert found[0] is not None and "index values span [-2, 3]" in found[0][1] and "smallest bad value -2 at index[0, 1]" in found[0][1]
    assert found[1] is not None and "index values span [0, 8]" in found[1][1] and "largest bad value 8 at index[1, 1]" in found[1][1]
    assert found[2] is not None and "largest bad value 4 at index[0, 0]" in found[2][1]
