import torch
import torch.nn as nn


class MultimodalDecoder(nn.Module):
    def __init__(self, dim, vocab_size):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)
        self.norm = nn.LayerNorm(dim)
        self.to_logits = nn.Linear(dim, vocab_size)

    def forward(self, image_embs, token_embs):
        # image_embs: [B, N, D], token_embs: [B, L, D]
        steps = torch.arange(1, token_embs.shape[1] + 1).view(1, -1, 1)
        causal = token_embs.cumsum(dim=1) / steps  # [B, L, D], position t only sees tokens <= t
        k, v = self.kv(image_embs).chunk(2, dim=-1)  # [B, N, D]
        attn = (self.q(causal) @ k.transpose(1, 2)).softmax(dim=-1)  # [B, L, N]
        return self.to_logits(self.norm(causal + attn @ v))  # [B, L, V]


class CoCa(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, dim)
        self.text_decoder = MultimodalDecoder(dim, vocab_size)

    def _encode_text(self, text):
        # text: [B, L] -> token_embs: [B, L, D]
        return self.token_embedding(text)

    def forward(self, image_embs, text):
        token_embs = self._encode_text(text)  # [B, L, D]
        labels = text[:, -token_embs.shape[1]:]  # [B, L]
        logits = self.text_decoder(image_embs, token_embs)  # [B, L, V]
        return {"logits": logits, "labels": labels}


def caption_loss(logits, labels, pad_id):
    # logits: [B, T, V], labels: [B, T]
    log_probs = logits.log_softmax(dim=-1)
    token_logp = log_probs.gather(-1, labels.unsqueeze(-1)).squeeze(-1)  # [B, T]
    keep = labels != pad_id
    return -(token_logp * keep).sum() / keep.sum()


def reference_loss(model, image_embs, text, pad_id):
    logits = model.text_decoder(image_embs, model.token_embedding(text[:, :-1]))
    total, count = 0.0, 0
    for b in range(text.shape[0]):
        for t in range(text.shape[1] - 1):
            target = text[b, t + 1].item()
            if target != pad_id:
                total -= logits[b, t].log_softmax(dim=-1)[target].item()
                count += 1
    return total / count


if __name__ == "__main__":
    torch.manual_seed(0)
    model = CoCa(vocab_size=100, dim=32)
    image_embs = torch.randn(3, 5, 32)
    text = torch.randint(2, 100, (3, 10))
    text[:, 0] = 1  # <start_of_text>
    text[0, 7:] = 0  # padding
    with torch.no_grad():
        out = model(image_embs, text)
        loss = caption_loss(out["logits"], out["labels"], pad_id=0).item()
        ref = reference_loss(model, image_embs, text, pad_id=0)
    same = (out["labels"] == text[:, : out["labels"].shape[1]]).float().mean().item()
    print(f"caption loss: {loss:.4f}  next-token reference: {ref:.4f}")
    print(f"targets equal to the token the decoder reads at the same position: {same:.0%}")
