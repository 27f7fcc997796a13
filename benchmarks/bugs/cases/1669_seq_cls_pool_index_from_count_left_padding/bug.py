import torch
import torch.nn as nn

CONFIG = {"vocab_size": 40, "hidden_size": 16, "num_labels": 3, "pad_token_id": 0}


class DecoderForSequenceClassification(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embed = nn.Embedding(config["vocab_size"], config["hidden_size"])
        self.proj = nn.Linear(config["hidden_size"], config["hidden_size"])
        self.score = nn.Linear(config["hidden_size"], config["num_labels"], bias=False)

    def forward(self, input_ids, labels=None):
        keep = input_ids.ne(self.config["pad_token_id"]).unsqueeze(-1).float()
        running = (self.embed(input_ids) * keep).cumsum(1) / keep.cumsum(1).clamp(min=1)
        hidden = torch.tanh(self.proj(running))
        logits = self.score(hidden)
        batch_size = input_ids.shape[0]
        sequence_lengths = torch.ne(input_ids, self.config["pad_token_id"]).sum(-1) - 1
        pooled_logits = logits[torch.arange(batch_size), sequence_lengths]
        loss = None
        if labels is not None:
            loss = nn.functional.cross_entropy(pooled_logits, labels)
        return loss, pooled_logits


def collate(batch, pad_id, padding_side):
    width = max(len(x) for x in batch)
    rows = []
    for ids in batch:
        pad = [pad_id] * (width - len(ids))
        rows.append(pad + ids if padding_side == "left" else ids + pad)
    return torch.tensor(rows)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = DecoderForSequenceClassification(CONFIG).eval()
    texts = [[5, 9, 3, 22, 7], [11, 4], [30, 2, 8]]
    batch = collate(texts, CONFIG["pad_token_id"], padding_side="left")
    with torch.no_grad():
        _, pooled = model(batch)
        ref = []
        for ids in texts:
            _, one = model(torch.tensor([ids]))
            ref.append(one[0])
        ref = torch.stack(ref)
    print("pooled logits (left-padded batch):\n", pooled)
    print("per-example reference:\n", ref)
