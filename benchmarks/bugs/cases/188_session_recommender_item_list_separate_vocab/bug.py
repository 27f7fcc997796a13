import torch
import torch.nn as nn


class InteractionDataset:
    def __init__(self, rows, config):
        self.config = config
        self.field2id_token = {}
        self.field2token_id = {}
        for field in config["token_fields"]:
            self._remap(field, [row[field] for row in rows])
        self.rows = rows

    def _remap(self, field, values):
        tokens = ["[PAD]"]
        for value in values:
            for tok in (value if isinstance(value, list) else [value]):
                if tok not in tokens:
                    tokens.append(tok)
        self.field2id_token[field] = tokens
        self.field2token_id[field] = {tok: i for i, tok in enumerate(tokens)}

    def num(self, field):
        return len(self.field2id_token[field])

    def batch(self):
        max_len = self.config["max_seq_length"]
        seqs, lens, targets = [], [], []
        for row in self.rows:
            ids = [self.field2token_id["item_id_list"][t] for t in row["item_id_list"]][-max_len:]
            lens.append(len(ids))
            seqs.append(ids + [0] * (max_len - len(ids)))
            targets.append(self.field2token_id["item_id"][row["item_id"]])
        return torch.tensor(seqs), torch.tensor(lens), torch.tensor(targets)


class GRUSessionModel(nn.Module):
    def __init__(self, config, dataset):
        super().__init__()
        self.n_items = dataset.num("item_id")
        self.item_embedding = nn.Embedding(self.n_items, config["embedding_size"], padding_idx=0)
        self.gru = nn.GRU(config["embedding_size"], config["embedding_size"], batch_first=True)

    def forward(self, item_seq, item_seq_len):
        emb = self.item_embedding(item_seq)
        out, _ = self.gru(emb)
        last = (item_seq_len - 1).view(-1, 1, 1).expand(-1, 1, out.size(-1))
        return out.gather(1, last).squeeze(1)

    def full_sort_scores(self, item_seq, item_seq_len):
        return self.forward(item_seq, item_seq_len) @ self.item_embedding.weight.t()


if __name__ == "__main__":
    torch.manual_seed(0)
    config = {"token_fields": ["user_id", "item_id_list", "item_id"], "max_seq_length": 5, "embedding_size": 8}
    rows = [
        {"user_id": "0", "item_id_list": ["0", "1", "2", "3", "4"], "item_id": "9"},
        {"user_id": "1", "item_id_list": ["0", "1", "2", "3"], "item_id": "5"},
        {"user_id": "2", "item_id_list": ["0", "1", "2", "3"], "item_id": "4"},
    ]
    dataset = InteractionDataset(rows, config)
    model = GRUSessionModel(config, dataset).eval()
    item_seq, item_seq_len, targets = dataset.batch()
    with torch.no_grad():
        scores = model.full_sort_scores(item_seq, item_seq_len)
    print(scores.argmax(-1), targets)
