import torch
import torch.nn as nn
import torch.nn.functional as F


class JointDecoder(nn.Module):
    def __init__(self, vocab, dim, n_image_tokens):
        super().__init__()
        self.n_image_tokens = n_image_tokens
        self.tok = nn.Embedding(vocab, dim)
        self.img_proj = nn.Linear(32, dim)
        layer = nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, 2)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, image_feats, input_ids):
        # image_feats: [B, N_img, 32], input_ids: [B, T]
        x = torch.cat([self.img_proj(image_feats), self.tok(input_ids)], dim=1)  # [B, N_img + T, D]
        n = x.size(1)
        causal = torch.triu(torch.full((n, n), float("-inf")), diagonal=1)
        h = self.blocks(x, mask=causal)
        return self.lm_head(h[:, self.n_image_tokens:])  # logits over text positions: [B, T, V]


def caption_loss(logits, labels, ignore_index=-100):
    # logits: [B, T, V], labels: [B, T] with labels[:, i] == input_ids[:, i] (prompt masked with -100)
    logits, labels = logits[:, :-1], labels[:, 1:]  # position t predicts token t + 1
    log_probs = F.log_softmax(logits, dim=-1)  # [B, T-1, V]
    valid = labels != ignore_index  # [B, T-1]
    safe = labels.masked_fill(~valid, 0)
    token_lp = log_probs.gather(-1, safe.unsqueeze(-1)).squeeze(-1)  # [B, T-1]
    return -(token_lp * valid).sum() / valid.sum()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = JointDecoder(vocab=40, dim=32, n_image_tokens=4).eval()
    image_feats = torch.randn(2, 4, 32)
    input_ids = torch.randint(0, 40, (2, 9))
    labels = input_ids.clone()
    labels[:, :2] = -100  # prompt tokens
    with torch.no_grad():
        logits = model(image_feats, input_ids)
        loss = caption_loss(logits, labels)
        lp = F.log_softmax(logits, -1)
        terms = [-lp[b, t - 1, labels[b, t]].item() for b in range(2) for t in range(1, 9) if labels[b, t] != -100]
    assert abs(loss.item() - sum(terms) / len(terms)) < 1e-5
    print("ok")
