"""False findings of the seventeenth set of packages never linted before (benchmarks/README.md, "Seventeenth
set"), each as a small program in the style of the package's code: torch runs it as the package does, and the
linter stays silent. Beside each, the mistake the rule is for, still reported and shown wrong in torch."""
import pytest

from .conftest import codes
from .snippets import run_snippet

# A video VAE blends decoded tiles into one buffer through a tuple of slices bound to a name.
TILES = """
import torch

class Tile:
    def __init__(self, t0, h, w):
        self.out_coords = (slice(None), slice(None), slice(t0, t0 + 4), slice(0, h), slice(0, w))

def accumulate_tiles(buffer, tiles, decoded_tiles):
    weights = torch.zeros_like(buffer)
    for tile, decoded in zip(tiles, decoded_tiles):
        t0 = tile.out_coords[2].start
        chunk_coords = (slice(None), slice(None), slice(t0, t0 + decoded.shape[2]), tile.out_coords[3], tile.out_coords[4])
        buffer[chunk_coords] += decoded
        weights[chunk_coords] += 1.0
    return buffer / weights.clamp(min=1.0)

if __name__ == "__main__":
    tiles = [Tile(0, 8, 8), Tile(2, 8, 8)]
    OUT = accumulate_tiles(torch.zeros(1, 3, 6, 8, 8), tiles, [torch.ones(1, 3, 4, 8, 8)] * 2)
"""


def test_a_write_through_a_tuple_bound_to_a_name_is_analysed_without_an_internal_error(torch):
    out = run_snippet(TILES)["OUT"]
    assert torch.equal(out, torch.ones(1, 3, 6, 8, 8))  # every frame covered once or twice, averaged to 1
    assert codes(TILES) == []  # not GL000


# Bonds paired by their central atom: the local offset of each pair comes from torch.div with a rounding mode.
PAIRS = """
import torch

def group_cross(key_a, key_b, n_keys: int):
    order_a = torch.argsort(key_a, stable=True)
    order_b = torch.argsort(key_b, stable=True)
    cnt_a = torch.bincount(key_a, minlength=n_keys)
    cnt_b = torch.bincount(key_b, minlength=n_keys)
    off_a = torch.cumsum(cnt_a, 0) - cnt_a
    off_b = torch.cumsum(cnt_b, 0) - cnt_b
    n_pairs = cnt_a * cnt_b
    key = torch.repeat_interleave(torch.arange(n_keys), n_pairs)
    start = torch.cumsum(n_pairs, 0) - n_pairs
    pos = torch.arange(int(n_pairs.sum())) - start.repeat_interleave(n_pairs)
    a_local = torch.div(pos, cnt_b[key], rounding_mode="ROUNDING")
    b_local = pos - a_local * cnt_b[key]
    return order_a[off_a[key] + a_local], order_b[off_b[key] + b_local]

if __name__ == "__main__":
    torch.manual_seed(0)
    KA, KB = torch.randint(0, 6, (14,)), torch.randint(0, 6, (11,))
    IA, IB = group_cross(KA, KB, 6)
"""


@pytest.mark.parametrize("rounding", ["floor", "trunc"])
def test_a_division_with_a_rounding_mode_keeps_integer_indices(torch, rounding):
    code = PAIRS.replace("ROUNDING", rounding)
    scope = run_snippet(code)
    assert scope["IA"].dtype == torch.int64 and torch.equal(scope["KA"][scope["IA"]], scope["KB"][scope["IB"]])
    assert codes(code) == []


def test_a_true_division_still_makes_a_float_index(torch):
    code = PAIRS.replace(', rounding_mode="ROUNDING"', "")
    with pytest.raises(IndexError, match="tensors used as indices must be long"):
        run_snippet(code)
    assert "GL008" in codes(code)


# Projected video and audio rows added back into one packed sequence, each cut to its own index's length.
PACKED = """
import torch
import torch.nn as nn

class PackedEmbed(nn.Module):
    def __init__(self, video_dim=64, audio_dim=32, hidden=128):
        super().__init__()
        self.hidden = hidden
        self.video_proj = nn.Linear(video_dim, hidden)
        self.audio_proj = nn.Linear(audio_dim, hidden)

    def forward(self, x, audio_x, img_pos, audio_pos, seq_len: int):
        video_embed = self.video_proj(x.view(-1, x.shape[-1]).index_select(0, img_pos))
        audio_embed = self.audio_proj(audio_x.view(-1, audio_x.shape[-1]).index_select(0, audio_pos))
        out = torch.zeros(seq_len, self.hidden, dtype=video_embed.dtype)
        out.index_add_(0, img_pos, video_embed[: BOUND])
        out.index_add_(0, audio_pos, audio_embed[: len(audio_pos)])
        return out

if __name__ == "__main__":
    img_pos, audio_pos = torch.arange(12, 52), torch.arange(52, 72)
    OUT = PackedEmbed()(torch.randn(1, 72, 64), torch.randn(1, 72, 32), img_pos, audio_pos, 72)
"""


@pytest.mark.parametrize("bound", ["img_pos.shape[0]", "img_pos.size(0)", "len(img_pos)"])
def test_rows_cut_to_the_length_of_their_own_index_keep_every_row(torch, bound):
    code = PACKED.replace("BOUND", bound)
    out = run_snippet(code)["OUT"]
    assert (out[12:].abs().sum(1) > 0).all() and (out[:12] == 0).all()  # each packed row written once
    assert codes(code) == []


def test_rows_cut_to_another_length_are_still_reported(torch):
    code = PACKED.replace("BOUND", "audio_pos.shape[0]")
    with pytest.raises(RuntimeError, match="should be equal to source.size"):
        run_snippet(code)
    assert "GL003" in codes(code)


# Grouped point clouds masked group by group; the docstring still describes the ungrouped sequences.
GROUPS = '''
import torch

def group_random_masking(x, f, mask_ratio=0.9):
    """Randomly drop point groups.
    x: [N, L, 3], sequence
    f: [N, D, L], sequence
    """
    UNPACK
    len_keep = int(N * (1 - mask_ratio))
    ids_keep = torch.argsort(torch.rand(B, N), dim=1)[:, :len_keep]
    x_masked = torch.gather(x, dim=2, index=ids_keep.unsqueeze(1).unsqueeze(-1).expand(-1, 3, -1, K))
    f_masked = torch.gather(f, dim=2, index=ids_keep.unsqueeze(1).unsqueeze(-1).expand(-1, f.shape[1], -1, f.shape[-1]))
    return x_masked, f_masked

if __name__ == "__main__":
    XM, FM = group_random_masking(torch.rand(8, 3, 256, 32), torch.rand(8, 16, 256, 32))
'''


def test_a_docstring_the_codes_own_unpacking_contradicts_is_no_fact(torch):
    code = GROUPS.replace("UNPACK", "B, _, N, K = x.shape  # grouped xyz: batch, 3, groups, neighbours")
    scope = run_snippet(code)
    assert scope["XM"].shape == (8, 3, 25, 32) and scope["FM"].shape == (8, 16, 25, 32)
    assert codes(code) == []


def test_a_docstring_nothing_contradicts_still_decides(torch):
    code = GROUPS.replace("UNPACK", "B, N, K = x.shape[0], x.shape[2], x.shape[-1]")
    assert codes(code.split("if __name__")[0]).count("GL001") == 2
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.gather(torch.rand(8, 256, 3), 2, torch.zeros(8, 3, 25, 32, dtype=torch.long))  # the documented x
