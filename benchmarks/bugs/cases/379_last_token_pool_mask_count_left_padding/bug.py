import torch
import torch.nn as nn

CFG = {"vocab": 50, "hidden": 16, "num_labels": 3, "pad_id": 0, "padding_side": "left"}


def collate(batch, pad_id, side):
    longest = max(len(ids) for ids in batch)
    input_ids, attention_mask = [], []
    for ids in batch:
        pad = [pad_id] * (longest - len(ids))
        input_ids.append(pad + ids if side == "left" else ids + pad)
        mask = [0] * len(pad)
        attention_mask.append(mask + [1] * len(ids) if side == "left" else [1] * len(ids) + mask)
    return torch.tensor(input_ids), torch.tensor(attention_mask)


def pool_last_token(hidden, attention_mask):
    last = attention_mask.sum(dim=1) - 1
    return hidden[torch.arange(hidden.shape[0]), last]


class LastTokenClassifier(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg["vocab"], cfg["hidden"])
        self.mix = nn.GRU(cfg["hidden"], cfg["hidden"], batch_first=True)
        self.score = nn.Linear(cfg["hidden"], cfg["num_labels"])

    def forward(self, input_ids, attention_mask):
        hidden, _ = self.mix(self.embed(input_ids))
        return self.score(pool_last_token(hidden, attention_mask))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = LastTokenClassifier(CFG).eval()
    texts = [[5, 9, 13, 2], [7, 3, 2], [11, 4, 8, 6, 12, 2]]
    ids, mask = collate(texts, CFG["pad_id"], CFG["padding_side"])
    with torch.no_grad():
        logits = model(ids, mask)
        hidden, _ = model.mix(model.embed(ids))
        at_end = model.score(hidden[:, -1])
    print("pooled positions:", (mask.sum(dim=1) - 1).tolist(), "of width", ids.shape[1])
    print("logits      :", [[round(v, 3) for v in row] for row in logits.tolist()])
    print("last tokens :", [[round(v, 3) for v in row] for row in at_end.tolist()])
