import torch
import torch.nn as nn
from collections import Counter


def build_word_map(captions, min_word_freq):
    freq = Counter(w for c in captions for w in c.split())
    words = [w for w in freq if freq[w] > min_word_freq]
    word_map = {w: i + 1 for i, w in enumerate(words)}
    word_map["<unk>"] = len(word_map) + 1
    word_map["<start>"] = len(word_map) + 1
    word_map["<end>"] = len(word_map) + 1
    word_map["<pad>"] = 0
    return word_map


class CaptionDecoder(nn.Module):
    def __init__(self, vocab_size, embed_dim=8, hidden=16):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.cell = nn.LSTMCell(embed_dim, hidden)
        self.fc = nn.Linear(hidden, vocab_size)

    def step(self, prev_words, state):
        emb = self.embedding(prev_words)
        h, c = self.cell(emb, state)
        return self.fc(h), (h, c)


def greedy_caption(decoder, word_map, max_len=5, beam=3):
    prev = torch.full((beam,), word_map["<start>"], dtype=torch.long)
    state = (torch.zeros(beam, 16), torch.zeros(beam, 16))
    out = []
    for _ in range(max_len):
        scores, state = decoder.step(prev, state)
        prev = scores.argmax(dim=1)
        out.append(prev)
    return torch.stack(out, 1)


if __name__ == "__main__":
    torch.manual_seed(0)
    corpus = ["a dog runs", "a cat sits", "a dog sits on a mat", "the cat runs", "a bird"]
    train_map = build_word_map(corpus, min_word_freq=1)
    decoder = CaptionDecoder(len(train_map))
    assert max(train_map.values()) < decoder.embedding.num_embeddings
    caps = greedy_caption(decoder, train_map)
    prev = torch.full((3,), train_map["<start>"], dtype=torch.long)
    state = (torch.zeros(3, 16), torch.zeros(3, 16))
    for t in range(5):
        for b in range(3):
            assert torch.equal(decoder.embedding(prev)[b], decoder.embedding.weight[int(prev[b])])
        scores, state = decoder.step(prev, state)
        prev = scores.argmax(dim=1)
        assert torch.equal(prev, caps[:, t])
    print("ok")
