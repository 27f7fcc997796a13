import torch
import torch.nn as nn
import torch.nn.functional as F


def left_pad_collate(batch, pad_id):
    longest = max(len(ids) for ids in batch)
    input_ids = torch.full((len(batch), longest), pad_id, dtype=torch.long)
    attention_mask = torch.zeros(len(batch), longest, dtype=torch.long)
    for i, ids in enumerate(batch):
        input_ids[i, longest - len(ids):] = torch.tensor(ids)
        attention_mask[i, longest - len(ids):] = 1
    return {"input_ids": input_ids, "attention_mask": attention_mask}


class CausalEncoder(nn.Module):
    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.rnn = nn.GRU(hidden_size, hidden_size, batch_first=True)

    def forward(self, input_ids, attention_mask):
        x = self.embed(input_ids) * attention_mask.unsqueeze(-1)
        return self.rnn(x)[0]


def last_token_pool(hidden_states, attention_mask):
    last = attention_mask.sum(dim=1) - 1
    index = last.view(-1, 1, 1).expand(-1, 1, hidden_states.size(-1))
    return hidden_states.gather(1, index).squeeze(1)


def embed_texts(model, token_lists, cfg):
    batch = left_pad_collate(token_lists, cfg["pad_id"])
    with torch.no_grad():
        hidden = model(batch["input_ids"], batch["attention_mask"])
    return F.normalize(last_token_pool(hidden, batch["attention_mask"]), dim=-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"vocab_size": 50, "hidden_size": 16, "pad_id": 0}
    model = CausalEncoder(cfg["vocab_size"], cfg["hidden_size"]).eval()
    query = [5, 17, 23, 8]
    passage = [9, 4, 31, 12, 40, 7, 3, 22, 15]
    alone = embed_texts(model, [query], cfg)[0]
    batched = embed_texts(model, [query, passage], cfg)[0]
    print("cosine(query alone, query in padded batch):", round(float(alone @ batched), 4))
