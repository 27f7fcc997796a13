import torch
import torch.nn as nn

CONFIG = {
    "encoder_vocab": 50265,   # roberta-style tokenizer used for the sentence encoder
    "hidden": 32,
    "mask_id": 50264,
    "mask_prob": 0.3,
}


class TinyGenerator(nn.Module):
    """Small MLM generator used to corrupt sentences; shares the encoder's tokenizer."""

    def __init__(self, vocab_size, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.lm_head = nn.Linear(hidden, vocab_size)

    def forward(self, input_ids):
        return self.lm_head(torch.tanh(self.embed(input_ids)))


def corrupt(generator, input_ids, cfg):
    mask = torch.rand(input_ids.shape) < cfg["mask_prob"]
    mlm_input_ids = input_ids.masked_fill(mask, cfg["mask_id"])
    with torch.no_grad():
        logits = generator(mlm_input_ids)
    sampled = logits.argmax(dim=-1)
    return torch.where(mask, sampled, input_ids), mask


if __name__ == "__main__":
    torch.manual_seed(0)
    generator = TinyGenerator(CONFIG["encoder_vocab"], hidden=CONFIG["hidden"])
    batch = torch.randint(3, CONFIG["encoder_vocab"] - 1, (4, 16))
    torch.manual_seed(1)
    corrupted, mask = corrupt(generator, batch, CONFIG)
    # reference: embedding rows looked up one token at a time
    ids = batch.masked_fill(mask, CONFIG["mask_id"])
    with torch.no_grad():
        emb = generator.embed(ids)
        for b in range(ids.shape[0]):
            for t in range(ids.shape[1]):
                assert torch.equal(emb[b, t], generator.embed.weight[ids[b, t].item()])
                logits = generator.lm_head(torch.tanh(generator.embed.weight[ids[b, t].item()]))
                want = logits.argmax().item() if mask[b, t] else batch[b, t].item()
                assert corrupted[b, t].item() == want
    print("ok")
