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
    positions = torch.arange(attention_mask.size(1), device=attention_mask.device)
    last = (attention_mask * positions).argmax(dim=1)  # rightmost real token, any padding side
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
    batch = left_pad_collate([query, passage], cfg["pad_id"])
    with torch.no_grad():
        hidden = model(batch["input_ids"], batch["attention_mask"])
    pooled = last_token_pool(hidden, batch["attention_mask"])
    for b in range(2):
        t_last = max(t for t in range(batch["attention_mask"].size(1)) if batch["attention_mask"][b, t] == 1)
        assert torch.equal(pooled[b], hidden[b, t_last])
    right_mask = torch.tensor([[1, 1, 1, 1, 0, 0, 0, 0, 0], [1] * 9])
    right_pooled = last_token_pool(hidden, right_mask)
    assert torch.equal(right_pooled[0], hidden[0, 3]) and torch.equal(right_pooled[1], hidden[1, 8])
    embed_texts(model, [query, passage], cfg)
    print("ok")
