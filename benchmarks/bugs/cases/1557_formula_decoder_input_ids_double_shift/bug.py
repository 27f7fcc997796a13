import torch
import torch.nn as nn


def shift_tokens_right(input_ids, pad_token_id, decoder_start_token_id):
    shifted = input_ids.new_zeros(input_ids.shape)
    shifted[:, 1:] = input_ids[:, :-1].clone()
    shifted[:, 0] = decoder_start_token_id
    return shifted.masked_fill(shifted == -100, pad_token_id)


def selective_log_softmax(logits, index):
    logps = logits.float().log_softmax(dim=-1)
    return torch.gather(logps, dim=-1, index=index.unsqueeze(-1)).squeeze(-1)


def causal_lm_token_loss(logits, labels, ignore_index=-100):
    shift_logits = logits[:, :-1, :]
    shift_labels = labels[:, 1:]
    valid = shift_labels != ignore_index
    token_logps = selective_log_softmax(shift_logits, shift_labels.masked_fill(~valid, 0))
    return -(token_logps * valid).sum() / valid.sum()


class ConvPatchEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.conv = nn.Conv2d(1, cfg["hidden"], kernel_size=cfg["patch"], stride=cfg["patch"])

    def forward(self, pixel_values):
        return self.conv(pixel_values).flatten(2).mean(-1)


class FormulaDecoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed_tokens = nn.Embedding(cfg["vocab_size"], cfg["hidden"])
        self.cell = nn.GRU(cfg["hidden"], cfg["hidden"], batch_first=True)
        self.lm_head = nn.Linear(cfg["hidden"], cfg["vocab_size"], bias=False)

    def forward(self, decoder_input_ids, encoder_state):
        out, _ = self.cell(self.embed_tokens(decoder_input_ids), encoder_state[None])
        return self.lm_head(out)


class FormulaRecognizer(nn.Module):
    """Image-to-LaTeX encoder-decoder; `input_ids` are the target formula tokens."""

    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.encoder = ConvPatchEncoder(cfg)
        self.decoder = FormulaDecoder(cfg)

    def forward(self, pixel_values, input_ids, labels=None):
        decoder_input_ids = shift_tokens_right(input_ids, self.cfg["pad_token_id"], self.cfg["decoder_start_token_id"])
        logits = self.decoder(decoder_input_ids, self.encoder(pixel_values))
        loss = None
        if labels is not None:
            loss = causal_lm_token_loss(logits, labels)
        return {"loss": loss, "logits": logits}


def build_batch(cfg, formulas):
    width = max(len(f) for f in formulas)
    ids = torch.full((len(formulas), width), -100, dtype=torch.long)
    for i, f in enumerate(formulas):
        ids[i, : len(f)] = torch.tensor(f)
    return {"pixel_values": torch.randn(len(formulas), 1, 16, 16), "input_ids": ids, "labels": ids.clone()}


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"vocab_size": 48, "hidden": 16, "patch": 4, "pad_token_id": 0, "decoder_start_token_id": 2}
    model = FormulaRecognizer(cfg)
    batch = build_batch(cfg, [[5, 17, 30, 8, 3], [9, 22, 3], [40, 11, 6, 3]])
    out = model(**batch)
    logp = out["logits"].log_softmax(-1)
    labels = batch["labels"]
    terms = [-logp[b, t, labels[b, t]] for b in range(labels.size(0)) for t in range(labels.size(1)) if labels[b, t] != -100]
    reference = torch.stack(terms).mean()
    n_scored = int((labels[:, 1:] != -100).sum())
    print("loss:", round(out["loss"].item(), 4), "reference:", round(reference.item(), 4),
          "| targets scored:", n_scored, "of", len(terms))
