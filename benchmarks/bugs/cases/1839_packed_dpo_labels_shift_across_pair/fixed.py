import torch
import torch.nn as nn
import torch.nn.functional as F

IGNORE_INDEX = -100


def shift_packed_labels(input_ids, cu_seqlens):
    # input_ids: [T] packed chosen_0 | rejected_0 | chosen_1 | rejected_1 ...
    # cu_seqlens: [2 * P + 1] segment boundaries inside the pack
    labels = torch.roll(input_ids, shifts=-1, dims=0)  # [T] label at t is token t + 1
    labels[cu_seqlens[1:] - 1] = IGNORE_INDEX  # last token of every segment has no target
    return labels


def packed_sequence_logps(logits, labels, cu_seqlens):
    # logits: [T, V], labels: [T] -> one summed log-prob per segment: [2 * P]
    logps = F.log_softmax(logits, dim=-1)  # [T, V]
    valid = labels != IGNORE_INDEX  # [T]
    safe_labels = labels.masked_fill(~valid, 0)  # [T]
    token_logps = torch.gather(logps, -1, safe_labels.unsqueeze(-1)).squeeze(-1)  # [T]
    token_logps = token_logps * valid
    seg_ids = torch.repeat_interleave(torch.arange(len(cu_seqlens) - 1), cu_seqlens.diff())  # [T]
    return torch.zeros(len(cu_seqlens) - 1).index_add_(0, seg_ids, token_logps)


def dpo_loss(policy_logps, ref_logps, beta=0.1):
    # policy_logps, ref_logps: [2 * P] ordered chosen, rejected, chosen, rejected ...
    chosen = policy_logps[0::2] - ref_logps[0::2]  # [P]
    rejected = policy_logps[1::2] - ref_logps[1::2]  # [P]
    return -F.logsigmoid(beta * (chosen - rejected)).mean()


class TinyLM(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):  # ids: [T] -> [T, V]
        return self.head(torch.tanh(self.emb(ids)))


if __name__ == "__main__":
    torch.manual_seed(0)
    policy, reference = TinyLM(50, 16), TinyLM(50, 16)
    lengths = torch.tensor([5, 4, 6, 3])  # chosen_0, rejected_0, chosen_1, rejected_1
    cu_seqlens = torch.cat([torch.zeros(1, dtype=torch.long), lengths.cumsum(0)])
    input_ids = torch.randint(0, 50, (int(lengths.sum()),))
    labels = shift_packed_labels(input_ids, cu_seqlens)
    policy_logps = packed_sequence_logps(policy(input_ids), labels, cu_seqlens)
    ref_logps = packed_sequence_logps(reference(input_ids), labels, cu_seqlens)
    full = F.log_softmax(policy(input_ids), dim=-1)
    for s in range(len(lengths)):
        start, end = cu_seqlens[s].item(), cu_seqlens[s + 1].item()
        ref = sum(full[t, input_ids[t + 1]].item() for t in range(start, end - 1))
        assert abs(policy_logps[s].item() - ref) < 1e-4, (s, policy_logps[s].item(), ref)
    print("dpo loss:", dpo_loss(policy_logps, ref_logps).item())
    print("ok")
