import torch
import torch.nn as nn
import torch.nn.functional as F

BASE_VOCAB = ["!", "instruction", "input", "response", "###", ":", "the", "a", "of", "to"]
SPECIAL_TOKENS = ["[INST]", "[INPT]", "[RESP]", "[MARK]", "[COLN]"]
INIT_FROM = ["instruction", "input", "response", "###", ":"]


class TinyLM(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, dim)
        self.lm_head = nn.Linear(dim, vocab_size, bias=False)

    def resize_token_embeddings(self, new_size):
        old = self.embed_tokens
        self.embed_tokens = nn.Embedding(new_size, old.embedding_dim)
        self.embed_tokens.weight.data[: old.num_embeddings] = old.weight.data
        self.lm_head = nn.Linear(old.embedding_dim, new_size, bias=False)


def add_special_tokens(model, vocab, specials, init_from):
    vocab = vocab + specials
    model.resize_token_embeddings(len(vocab))
    weight = model.embed_tokens.weight.data
    src_ids = torch.tensor([vocab.index(w) for w in init_from])
    new_rows = torch.arange(len(vocab) - len(specials), len(vocab))
    weight[new_rows] = weight[src_ids]
    return vocab


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyLM(len(BASE_VOCAB), 16)
    before = model.embed_tokens.weight.data.clone()
    vocab = add_special_tokens(model, BASE_VOCAB, SPECIAL_TOKENS, INIT_FROM)
    emb = model.embed_tokens.weight.data
    for i in range(len(BASE_VOCAB)):
        assert torch.equal(emb[i], before[i])
    for tok, src in zip(SPECIAL_TOKENS, INIT_FROM):
        assert torch.equal(emb[vocab.index(tok)], before[BASE_VOCAB.index(src)])
    print("ok")
