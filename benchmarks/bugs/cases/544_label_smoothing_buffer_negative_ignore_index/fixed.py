import torch
import torch.nn.functional as F
from torch import nn


class LabelSmoothingLoss(nn.Module):
    """KL(q || p) with a smoothed target q; padded target positions are skipped."""

    def __init__(self, label_smoothing, tgt_vocab_size, ignore_index=-100):
        super().__init__()
        assert 0.0 < label_smoothing <= 1.0
        self.ignore_index = ignore_index
        pad_is_token = 0 <= ignore_index < tgt_vocab_size
        smoothing_value = label_smoothing / (tgt_vocab_size - (2 if pad_is_token else 1))
        one_hot = torch.full((tgt_vocab_size,), smoothing_value)  # [V]
        if pad_is_token:
            one_hot[ignore_index] = 0
        self.register_buffer("one_hot", one_hot.unsqueeze(0))  # [1, V]
        self.confidence = 1.0 - label_smoothing

    def smoothed_targets(self, target):
        # target: [N] gold ids, ignore_index at padded positions
        pad = target == self.ignore_index  # [N]
        model_prob = self.one_hot.repeat(target.size(0), 1)  # [N, V]
        model_prob.scatter_(1, target.masked_fill(pad, 0).unsqueeze(1), self.confidence)
        model_prob.masked_fill_(pad.unsqueeze(1), 0)
        return model_prob

    def forward(self, output, target):
        # output: [N, V] log-probabilities
        return F.kl_div(output, self.smoothed_targets(target), reduction="sum")


def flatten_decoder_step(logits, labels):
    # logits: [B, T, V] -> [B*T, V]; labels: [B, T] -> [B*T]
    return F.log_softmax(logits, dim=-1).reshape(-1, logits.size(-1)), labels.reshape(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = 120
    crit = LabelSmoothingLoss(0.1, vocab)
    logits = torch.randn(2, 4, vocab)
    labels = torch.tensor([[5, 20, 7, -100], [11, 3, -100, -100]])
    out, tgt = flatten_decoder_step(logits, labels)
    q = crit.smoothed_targets(tgt)
    ref = torch.zeros(tgt.size(0), vocab)
    for i, g in enumerate(tgt.tolist()):
        if g == -100:
            continue
        for v in range(vocab):
            ref[i, v] = 0.9 if v == g else 0.1 / (vocab - 1)
    assert torch.allclose(q, ref, atol=1e-7)
    ref_loss = sum(float(ref[i, v] * (ref[i, v].log() - out[i, v]))
                   for i in range(tgt.size(0)) for v in range(vocab) if ref[i, v] > 0)
    assert abs(crit(out, tgt).item() - ref_loss) < 1e-3
    print("ok")
