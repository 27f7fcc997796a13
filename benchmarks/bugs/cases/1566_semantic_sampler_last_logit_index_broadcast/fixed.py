import torch
import torch.nn as nn
import torch.nn.functional as F


class SemanticTransformer(nn.Module):
    def __init__(self, num_semantic_tokens, dim, pad_id=-1):
        super().__init__()
        self.pad_id = pad_id
        self.start_token = nn.Parameter(torch.randn(dim))
        self.semantic_embedding = nn.Embedding(num_semantic_tokens, dim)
        self.mix = nn.GRU(dim, dim, batch_first=True)
        self.to_logits = nn.Linear(dim, num_semantic_tokens)

    def forward(self, ids):
        # ids: (b, n) semantic token ids, right padded with pad_id
        b = ids.shape[0]
        tokens = self.semantic_embedding(ids.masked_fill(ids == self.pad_id, 0))  # (b, n, d)
        start = self.start_token.expand(b, 1, -1)  # (b, 1, d)
        hidden, _ = self.mix(torch.cat((start, tokens), dim=1))  # (b, n + 1, d)
        return self.to_logits(hidden)  # (b, n + 1, num_semantic_tokens)


def top_k(logits, thres=0.9):
    k = max(1, int((1 - thres) * logits.shape[-1]))
    val, ind = logits.topk(k, dim=-1)
    out = torch.full_like(logits, float("-inf"))
    return out.scatter(-1, ind, val)


@torch.no_grad()
def generate(transformer, prime_ids, max_length, filter_thres=0.9):
    # prime_ids: (b, n) right padded with transformer.pad_id
    batch, vocab = prime_ids.shape[0], transformer.to_logits.out_features
    sample_ids = prime_ids.clone()
    last_logit_indices = (prime_ids != transformer.pad_id).sum(dim=-1)  # (b,)

    for _ in range(prime_ids.shape[-1], max_length):
        logits = transformer(sample_ids)  # (b, n + 1, c)
        index = last_logit_indices[:, None, None].expand(batch, 1, logits.shape[-1])  # (b, 1, c)
        last_logits = logits.gather(1, index)  # (b, 1, c)
        last_logits = last_logits.reshape(batch, vocab)  # (b, c)
        sampled = top_k(last_logits, thres=filter_thres).argmax(dim=-1)  # (b,)
        sample_ids = torch.cat((sample_ids, sampled[:, None]), dim=-1)
        last_logit_indices += 1
    return sample_ids


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SemanticTransformer(num_semantic_tokens=50, dim=16).eval()
    prime = torch.randint(0, 50, (4, 6))
    prime[1, 4:] = -1
    prime[3, 3:] = -1
    out = generate(model, prime, max_length=10)

    # reference: one row at a time, read the logit row at the row's own last position
    with torch.no_grad():
        ref = prime.clone()
        last = [int((prime[b] != -1).sum()) for b in range(4)]
        for _ in range(6, 10):
            logits = model(ref)
            picks = []
            for b in range(4):
                row = top_k(logits[b, last[b]][None], thres=0.9)[0]
                picks.append(int(row.argmax()))
            ref = torch.cat((ref, torch.tensor(picks)[:, None]), dim=-1)
            last = [x + 1 for x in last]
    assert torch.equal(out, ref)
    print("ok")
