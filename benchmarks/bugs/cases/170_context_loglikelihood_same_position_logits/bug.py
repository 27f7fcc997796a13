import torch
import torch.nn as nn


class ToyDecoder(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mix = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, ids):
        h, _ = self.mix(self.emb(ids))  # [B, T, D], causal by construction
        return self.out(h)  # [B, T, V]


def context_log_likelihood(model, input_ids, input_lengths):
    # input_ids: [B, T] padded contexts, input_lengths: [B]
    logits = model(input_ids)  # [B, T, V]
    log_probs = torch.log_softmax(logits, dim=-1)  # [B, T, V]
    # log P(token_t | tokens_<t) for every context token
    token_lp = log_probs.gather(2, input_ids.unsqueeze(-1)).squeeze(-1)  # [B, T]
    steps = torch.arange(input_ids.size(1))[None, :]  # [1, T]
    valid = (steps >= 1) & (steps < input_lengths[:, None])  # the first token has no context
    return (token_lp * valid).sum(dim=1)  # [B]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ToyDecoder(vocab=40, dim=16)
    input_ids = torch.randint(0, 40, (3, 10))  # [B, T]
    input_lengths = torch.tensor([10, 7, 4])  # [B]
    with torch.no_grad():
        ll = context_log_likelihood(model, input_ids, input_lengths)
        lp = torch.log_softmax(model(input_ids), dim=-1)
    ref = torch.tensor([sum(lp[b, t - 1, input_ids[b, t]].item() for t in range(1, int(input_lengths[b])))
                        for b in range(3)])
    print("context log-likelihood:", ll.tolist())
    print("reference (logits[t-1] scores token t):", ref.tolist())
