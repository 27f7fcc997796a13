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
    batch_range = torch.arange(batch)[:, None]  # (b, 1)
    last_logit_indices = (prime_ids != transformer.pad_id).sum(dim=-1)  # (b,)

    for _ in range(prime_ids.shape[-1], max_length):
        logits = transformer(sample_ids)  # (b, n + 1, c)
        last_logits = logits[batch_range, last_logit_indices]  # (b, 1, c)
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
    print("generated:", out[:, 6:].tolist())
