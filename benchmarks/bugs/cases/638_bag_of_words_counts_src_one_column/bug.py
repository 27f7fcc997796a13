import torch

CFG = {"vocab_size": 50, "pad_id": 0, "max_len": 12}


def collate(batch, cfg):
    out = torch.full((len(batch), cfg["max_len"]), cfg["pad_id"], dtype=torch.long)
    for i, toks in enumerate(batch):
        toks = toks[: cfg["max_len"]]
        out[i, : len(toks)] = torch.tensor(toks)
    return out


def bag_of_words(token_ids, cfg):
    counts = torch.zeros(token_ids.size(0), cfg["vocab_size"])
    weights = (token_ids != cfg["pad_id"]).float().sum(dim=1, keepdim=True).clamp(min=1).reciprocal()
    counts.scatter_add_(1, token_ids, weights)
    counts[:, cfg["pad_id"]] = 0
    return counts


if __name__ == "__main__":
    docs = [[5, 7, 7, 9], [3, 3, 3], [12, 40, 41, 42, 5, 5], [8]]
    ids = collate(docs, CFG)
    tf = bag_of_words(ids, CFG)
    print(tf.sum(dim=1))
