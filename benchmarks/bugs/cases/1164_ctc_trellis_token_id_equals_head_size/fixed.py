from dataclasses import dataclass, field

import torch
import torch.nn as nn


@dataclass
class AlignConfig:
    hidden_size: int = 32
    num_ctc_labels: int = 34          # output size of the pretrained CTC head
    vocab: list = field(default_factory=lambda: ["<pad>", "<s>", "</s>", "<unk>", "|"] + list("abcdefghijklmnopqrstuvwxyzåäö") + ["'", "-"])


class CTCAligner(nn.Module):
    def __init__(self, cfg: AlignConfig):
        super().__init__()
        self.cfg = cfg
        self.head = nn.Linear(cfg.hidden_size, cfg.num_ctc_labels)
        self.dictionary = {tok: i for i, tok in enumerate(cfg.vocab)}

    def emissions(self, frames):
        # frames: [T, hidden] -> log-probs [T, num_ctc_labels]
        return torch.log_softmax(self.head(frames), dim=-1)

    def tokens_for(self, text):
        # ids into the CTC label axis, one per character; spaces become "|"
        ids = [self.dictionary.get(c, -1) for c in text.replace(" ", "|")]
        return torch.tensor([i for i in ids if 0 <= i < self.cfg.num_ctc_labels])


def get_trellis(emission, tokens, blank_id=0):
    # emission: [T, C], tokens: [N] -> trellis [T, N]
    num_frame, num_tokens = emission.size(0), tokens.numel()
    trellis = torch.zeros(num_frame, num_tokens)
    trellis[1:, 0] = torch.cumsum(emission[1:, blank_id], 0)
    trellis[0, 1:] = -float("inf")
    trellis[-num_tokens + 1:, 0] = float("inf")
    for t in range(num_frame - 1):
        trellis[t + 1, 1:] = torch.maximum(
            trellis[t, 1:] + emission[t, blank_id],
            trellis[t, :-1] + emission[t, tokens[1:]],
        )
    return trellis


if __name__ == "__main__":
    torch.manual_seed(0)
    aligner = CTCAligner(AlignConfig())
    frames = torch.randn(60, aligner.cfg.hidden_size)
    with torch.no_grad():
        emission = aligner.emissions(frames)
    tokens = aligner.tokens_for("ei se ole niin yksinkertaista - mutta ok")
    trellis = get_trellis(emission, tokens)
    T, N = emission.size(0), tokens.numel()
    ref = [[0.0] * N for _ in range(T)]
    for t in range(1, T):
        ref[t][0] = ref[t - 1][0] + emission[t, 0].item()
    for j in range(1, N):
        ref[0][j] = -float("inf")
    for t in range(T - N + 1, T):
        ref[t][0] = float("inf")
    for t in range(T - 1):
        for j in range(1, N):
            stay = ref[t][j] + emission[t, 0].item()
            move = ref[t][j - 1] + emission[t, int(tokens[j])].item()
            ref[t + 1][j] = max(stay, move)
    assert int(tokens.max()) < emission.size(1)
    assert abs(trellis[-1, -1].item() - ref[-1][-1]) < 1e-3
    print("ok")
