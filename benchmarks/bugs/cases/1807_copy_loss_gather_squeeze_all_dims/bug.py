import torch
from torch import nn


class PointerCopyLoss(nn.Module):
    """Negative log-likelihood of gold tokens under a copy-augmented output distribution."""

    def __init__(self, vocab_size, force_copy=False, unk_index=0, ignore_index=1, eps=1e-20):
        super().__init__()
        self.vocab_size = vocab_size
        self.force_copy = force_copy
        self.unk_index = unk_index
        self.ignore_index = ignore_index
        self.eps = eps

    def forward(self, scores, align, target):
        """
        Args:
            scores (FloatTensor): ``(batch_size * tgt_len) x (vocab_size + src_len)``,
                probabilities over the fixed vocabulary followed by the source copy slots.
            align (LongTensor): ``(batch_size * tgt_len)``, source position of the gold
                token or ``unk_index`` when it cannot be copied.
            target (LongTensor): ``(batch_size * tgt_len)``, gold vocabulary ids.
        Returns:
            FloatTensor: ``(batch_size * tgt_len)`` per-token loss.
        """
        gen_probs = scores.gather(1, target.unsqueeze(1)).squeeze()
        copy_slots = align.unsqueeze(1) + self.vocab_size
        copy_probs = scores.gather(1, copy_slots).squeeze()
        copy_probs[align == self.unk_index] = 0
        copy_probs = copy_probs + self.eps
        use_gen = align == self.unk_index
        if not self.force_copy:
            use_gen = use_gen | (target != self.unk_index)
        probs = torch.where(use_gen, copy_probs + gen_probs, copy_probs)
        loss = -probs.log()
        return loss.masked_fill(target == self.ignore_index, 0.0)


def reference_loss(scores, align, target, crit):
    out = []
    for i in range(scores.shape[0]):
        copy_p = 0.0 if align[i] == crit.unk_index else scores[i, crit.vocab_size + align[i]].item()
        copy_p += crit.eps
        gen = align[i] == crit.unk_index or target[i] != crit.unk_index
        p = copy_p + scores[i, target[i]].item() if gen else copy_p
        out.append(0.0 if target[i] == crit.ignore_index else -torch.tensor(p).log().item())
    return torch.tensor(out)


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab_size, src_len = 20, 7
    crit = PointerCopyLoss(vocab_size)
    for n_tokens in (6, 1):  # a full step of 6 target tokens, then a single-token step
        scores = torch.softmax(torch.randn(n_tokens, vocab_size + src_len), dim=-1)
        align = torch.randint(0, src_len, (n_tokens,))
        target = torch.randint(0, vocab_size, (n_tokens,))
        loss = crit(scores, align, target)
        ref = reference_loss(scores, align, target, crit)
        print(n_tokens, "tokens, loss shape", tuple(loss.shape), "max |diff|", (loss - ref).abs().max().item())
