import torch
import torch.nn as nn
import torch.nn.functional as F


class WordTokenizer:
    pad_token_id, cls_token_id, sep_token_id = 0, 1, 2

    def __init__(self, vocab):
        self.vocab = {w: i + 3 for i, w in enumerate(vocab)}

    def __call__(self, texts, max_length):
        ids, mask = [], []
        for text in texts:
            toks = [self.cls_token_id] + [self.vocab[w] for w in text.split()][: max_length - 2] + [self.sep_token_id]
            ids.append(toks + [self.pad_token_id] * (max_length - len(toks)))
            mask.append([1] * len(toks) + [0] * (max_length - len(toks)))
        return {"input_ids": torch.tensor(ids), "attention_mask": torch.tensor(mask)}


class TinyBert(nn.Module):
    def __init__(self, vocab_size, hidden, layers):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.layers = nn.ModuleList([nn.TransformerEncoderLayer(hidden, 4, 2 * hidden, batch_first=True) for _ in range(layers)])

    def forward(self, input_ids, attention_mask):
        hidden_states = [self.embed(input_ids)]
        for layer in self.layers:
            hidden_states.append(layer(hidden_states[-1], src_key_padding_mask=attention_mask == 0))
        return hidden_states


class TransformerTorchEncoder:
    def __init__(self, tokenizer, model, pooling_strategy="cls", layer_index=-1, max_length=12):
        self.tokenizer = tokenizer
        self.model = model.eval()
        self.pooling_strategy = pooling_strategy
        self.layer_index = layer_index
        self.max_length = max_length

    @torch.no_grad()
    def encode(self, texts):
        input_tokens = self.tokenizer(texts, self.max_length)
        # layer: [batch_size, max_length, hidden]
        layer = self.model(**input_tokens)[self.layer_index]
        if self.pooling_strategy == "cls":
            CLS = self.tokenizer.cls_token_id
            # ind: [batch_size] -> [batch_size, 1, hidden]
            ind = torch.nonzero(input_tokens["input_ids"] == CLS)[:, 1]
            ind = ind.unsqueeze(-1).unsqueeze(-1).expand(-1, -1, layer.shape[2])
            # embeddings: [batch_size, hidden]
            embeddings = torch.gather(layer, 1, ind).squeeze()
        else:
            mask = input_tokens["attention_mask"].unsqueeze(-1).float()
            embeddings = (layer * mask).sum(dim=1) / mask.sum(dim=1)
        return embeddings


class VectorIndexer:
    def __init__(self, encoder, corpus):
        self.encoder = encoder
        # index: [num_docs, hidden]
        self.index = F.normalize(encoder.encode(corpus), dim=-1)

    def query(self, texts, top_k):
        # query_vecs: [num_queries, hidden]; scores: [num_queries, num_docs]
        query_vecs = F.normalize(self.encoder.encode(texts), dim=-1)
        scores = query_vecs @ self.index.T
        return scores.topk(top_k, dim=1).indices


if __name__ == "__main__":
    torch.manual_seed(0)
    words = "the cat sat on mat dog ran in park a bird sang tree".split()
    tokenizer = WordTokenizer(words)
    encoder = TransformerTorchEncoder(tokenizer, TinyBert(len(words) + 3, 16, 2))
    corpus = ["the cat sat on the mat", "a dog ran in the park", "a bird sang in a tree"]
    indexer = VectorIndexer(encoder, corpus)
    print("nearest documents:", indexer.query(["the dog sat in the park"], top_k=2).tolist())
