"""False findings of the twentieth set of packages never linted before (benchmarks/README.md, "Twentieth set"),
each as a small program in the style of the package's code: torch runs it as the package does, and the linter stays
silent. Beside each, the mistake the rule is for, still reported and shown wrong in torch."""
import pytest

from .conftest import codes
from .snippets import run_snippet

# A parameter comment from an older version of the function (`# T x 2`) beside the body's own `T, N, _ =
# tracks.shape`: the code runs only on 3-d tracks, and its caller hands it 3-d tracks.
TRACKS = """
import numpy as np
import torch

def draw_pred_tracks(
    rgb: np.ndarray,  # H x W x 3
    tracks: np.ndarray,  # T x 2
):
    T, N, _ = tracks.shape
    segments = []
    for s in range(T - 1):
        for i in range(N):
            start = (int(tracks[s, i, 0]), int(tracks[s, i, 1]))
            end = (int(tracks[s + 1, i, 0]), int(tracks[s + 1, i, 1]))
            segments.append((start, end))
    return rgb, segments

def draw_tracks_on_video(video: torch.Tensor, tracks: torch.Tensor):
    tracks = tracks[0].long().cpu().numpy()  # S, N, 2
    frame = video[0, -1].permute(1, 2, 0).byte().numpy()
    return draw_pred_tracks(frame, TRACKS_PASSED)

if __name__ == "__main__":
    OUT = draw_tracks_on_video(torch.zeros(1, 8, 3, 64, 96), torch.rand(1, 8, 5, 2) * 60)
"""


def test_a_parameter_comment_the_body_unpacks_otherwise_is_no_fact(torch):
    code = TRACKS.replace("TRACKS_PASSED", "tracks[0:4]")
    assert len(run_snippet(code)["OUT"][1]) == 3 * 5
    assert codes(code) == []


def test_two_dim_tracks_handed_to_it_are_still_reported(torch):
    # one frame's [N, 2] points, the tracks kept a tensor: the caller's own shape reaches the unpacking
    code = TRACKS.replace("TRACKS_PASSED", "tracks[0]").replace(".long().cpu().numpy()", ".long()")
    with pytest.raises(ValueError, match="not enough values to unpack"):
        run_snippet(code)
    assert "GL001" in codes(code)


# A collate's docstring lists each sample's items (`batch: [text, spec, wav, sid]`); the comment on `ssl = row[0]`
# gives the features' own three dims. The two texts disagree: neither is a fact.
COLLATE = '''
import torch

class FeatureCollate:
    """Zero-pads a training batch."""

    def __call__(self, batch):
        """Collates a training batch.
        PARAMS
        ------
        batch: [text_normalized, spec_normalized, wav_normalized, sid]
        """
        max_len = max(x[0].size(2) for x in batch)
        feats = torch.zeros(len(batch), batch[0][0].size(1), max_len)
        for i, row in enumerate(batch):
            ssl = row[0]                      # [1, 768, T] hubert features
            feats[i, :, :ssl.size(2)] = ssl[0, :, :]
        return feats

if __name__ == "__main__":
    OUT = FeatureCollate()([(torch.randn(1, 768, t), torch.randn(1025, t)) for t in (100, 80)])
'''


def test_a_docstring_of_listed_items_against_the_comment_on_the_line_is_no_fact(torch):
    assert run_snippet(COLLATE)["OUT"].shape == (2, 768, 100)
    assert codes(COLLATE) == []


def test_a_part_of_a_documented_batch_is_told_by_the_docstring_too(torch):
    # the package's own form: no comment on the line; the rank of `row[0]` comes from the docstring alone, which
    # is not enough for GL001 at a subscript (docstrings describe one call path, or an older one)
    code = COLLATE.replace("# [1, 768, T] hubert features", "")
    assert run_snippet(code)["OUT"].shape == (2, 768, 100)
    assert codes(code) == []


def test_a_computed_shape_still_wins_over_a_comment_of_another_rank(torch):
    code = '''
import torch

def pick(ids):
    h = torch.randn(4, 8)  # [B, T, H]
    return h.gather(1, ids)

if __name__ == "__main__":
    OUT = pick(torch.zeros(4, 1, 1, dtype=torch.long))
'''
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        run_snippet(code)
    assert "GL001" in codes(code)


# An arrow chain above the line that makes `ids`, from its source's shape through the gather that uses it: its first
# shape is what ids is made from, not ids.
VERIFY = '''
import torch

def verify_tokens(draft_logprobs, target_logprobs, u, draft_token_ids):
    batch_size, gamma, _vocab_size = draft_logprobs.shape
    dlp = draft_logprobs.float()
    tlp = target_logprobs.float()
    # ids: (batch, gamma) \u2192 (batch, gamma, 1) \u2192 gather \u2192 (batch, gamma, 1) \u2192 squeeze
    ids = draft_token_ids.to(dlp.device).unsqueeze(-1)  # (B, \u03b3, 1)
    lp_q = dlp.gather(-1, ids).squeeze(-1)
    lp_p = tlp.gather(-1, ids).squeeze(-1)
    return u < (lp_p - lp_q).exp().clamp(max=1.0)

if __name__ == "__main__":
    torch.manual_seed(0)
    dlp = torch.randn(2, 4, 1000).log_softmax(-1)
    OUT = verify_tokens(dlp, torch.randn(2, 4, 1000).log_softmax(-1), torch.rand(2, 4), torch.randint(0, 1000, (2, 4)))
'''


def test_an_arrow_chain_above_a_binding_is_no_shape_of_it(torch):
    assert run_snippet(VERIFY)["OUT"].shape == (2, 4)
    assert codes(VERIFY) == []


def test_a_named_shape_above_a_binding_still_is_one(torch):
    code = VERIFY.replace("# ids: (batch, gamma) \u2192 (batch, gamma, 1) \u2192 gather \u2192 (batch, gamma, 1) \u2192 squeeze\n",
                          "# ids: (batch, gamma)\n").replace("draft_token_ids.to(dlp.device).unsqueeze(-1)  # (B, \u03b3, 1)",
                                                             "draft_token_ids.to(dlp.device)")
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        run_snippet(code)
    assert "GL001" in codes(code)
