import torch


class SentenceDocs(torch.utils.data.Dataset):
    def __init__(self, docs):
        self.docs = docs

    def __len__(self):
        return len(self.docs)

    def __getitem__(self, i):
        tokens, segs = [], []
        for s, sent in enumerate(self.docs[i]):
            tokens += sent
            segs += [s] * len(sent)
        return torch.tensor(tokens), torch.tensor(segs)


def collate(batch):
    tokens = torch.nn.utils.rnn.pad_sequence([b[0] for b in batch], batch_first=True)
    segs = torch.nn.utils.rnn.pad_sequence([b[1] for b in batch], batch_first=True)
    return tokens, segs


def token_scores(tokens, cfg):
    tokens = tokens[:, : cfg["max_len"]]
    emb = torch.nn.functional.embedding(tokens, cfg["table"])
    return emb.sum(-1).sigmoid() * (tokens != 0)


def sentence_salience(tokens, segs, cfg):
    scores = token_scores(tokens, cfg)
    out = torch.zeros(tokens.size(0), cfg["max_sents"])
    return out.scatter_add_(1, segs, scores)


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    cfg = {"max_len": 8, "max_sents": 4, "table": torch.randn(20, 6, generator=g)}
    docs = [[[3, 4, 5], [6, 7], [8, 9, 10, 11]], [[1, 2], [12, 13, 14]]]
    loader = torch.utils.data.DataLoader(SentenceDocs(docs), batch_size=2, collate_fn=collate)
    tokens, segs = next(iter(loader))
    print(sentence_salience(tokens, segs, cfg))
