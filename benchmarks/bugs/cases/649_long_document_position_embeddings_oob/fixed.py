import torch
import torch.nn as nn


class RobertaStyleEmbeddings(nn.Module):
    def __init__(self, vocab_size, hidden, max_position_embeddings, pad_token_id=1):
        super().__init__()
        self.pad_token_id = pad_token_id
        self.word_embeddings = nn.Embedding(vocab_size, hidden, padding_idx=pad_token_id)
        self.position_embeddings = nn.Embedding(max_position_embeddings, hidden, padding_idx=pad_token_id)

    def create_position_ids(self, input_ids):
        mask = input_ids.ne(self.pad_token_id).long()
        return torch.cumsum(mask, dim=1) * mask + self.pad_token_id

    def forward(self, input_ids):
        position_ids = self.create_position_ids(input_ids)
        return self.word_embeddings(input_ids) + self.position_embeddings(position_ids)


class ToyTokenizer:
    def __init__(self, vocab_size, model_max_length):
        self.vocab_size = vocab_size
        self.model_max_length = model_max_length

    def encode(self, text, truncation=False):
        ids = [0] + [3 + sum(map(ord, w)) % (self.vocab_size - 3) for w in text.split()] + [2]
        if truncation:
            ids = ids[: self.model_max_length - 1] + [2]
        return ids


def embed_document(model, tokenizer, text):
    input_ids = torch.tensor(tokenizer.encode(text, truncation=True)).unsqueeze(0)
    return model(input_ids)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = RobertaStyleEmbeddings(vocab_size=500, hidden=32, max_position_embeddings=130)
    tokenizer = ToyTokenizer(vocab_size=500, model_max_length=128)
    text = " ".join(["Hello world!"] * 100)
    with torch.no_grad():
        out = embed_document(model, tokenizer, text)
    ids = tokenizer.encode(text, truncation=True)
    assert out.shape == (1, 128, 32)
    for t, tok in enumerate(ids):
        expected = model.word_embeddings.weight[tok] + model.position_embeddings.weight[t + 2]
        assert torch.allclose(out[0, t], expected)
    print("ok")
