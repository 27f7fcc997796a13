import torch
import torch.nn as nn


class WordPieceVocab:
    def __init__(self, words):
        self.itos = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"] + words
        self.stoi = {w: i for i, w in enumerate(self.itos)}
        self.pad_token_id = self.stoi["[PAD]"]

    def __len__(self):
        return len(self.itos)

    def batch_encode(self, texts, max_len):
        rows = []
        for text in texts:
            ids = [self.stoi["[CLS]"]] + [self.stoi.get(w, 1) for w in text.split()] + [self.stoi["[SEP]"]]
            rows.append(ids + [self.pad_token_id] * (max_len - len(ids)))
        return torch.tensor(rows)


class MeanPoolClassifier(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embeddings = nn.Embedding(config["vocab_size"], config["hidden_size"], padding_idx=config["pad_token_id"])
        self.classifier = nn.Linear(config["hidden_size"], config["num_labels"])

    def forward(self, input_ids):
        token_embeds = self.embeddings(input_ids)
        mask = (input_ids != self.embeddings.padding_idx).unsqueeze(-1).float()
        pooled = (token_embeds * mask).sum(1) / mask.sum(1)
        return self.classifier(pooled)


if __name__ == "__main__":
    torch.manual_seed(0)
    vocab = WordPieceVocab("the movie was great awful plot acting".split())
    config = {"vocab_size": len(vocab), "hidden_size": 16, "num_labels": 2, "pad_token_id": vocab.pad_token_id}
    model = MeanPoolClassifier(config)
    texts = ["the movie was great", "awful plot and acting"]
    with torch.no_grad():
        short = model(vocab.batch_encode(texts, max_len=8))
        long = model(vocab.batch_encode(texts, max_len=32))
        assert torch.allclose(short, long, atol=1e-6)
        ids = vocab.batch_encode(texts, max_len=8)
        for b in range(ids.size(0)):
            rows = [model.embeddings.weight[i] for i in ids[b].tolist() if i != vocab.pad_token_id]
            ref = model.classifier(torch.stack(rows).mean(0))
            assert torch.allclose(short[b], ref, atol=1e-6)
    print("ok")
