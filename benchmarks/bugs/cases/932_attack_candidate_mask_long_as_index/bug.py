import torch
import torch.nn as nn

STOPWORDS = {"the", "a", "of", "is", "and", "to", "was"}


def modifiable_positions(tokens, stopwords=STOPWORDS):
    """1 for words the attack may substitute, 0 for stopwords."""
    mask = torch.zeros(len(tokens), dtype=torch.long)
    for i, tok in enumerate(tokens):
        if tok.lower() not in stopwords:
            mask[i] = 1
    return mask


class WordImportance(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.score = nn.Linear(dim, 1)

    def forward(self, token_ids, candidate_mask):
        emb = self.embed(token_ids)
        candidates = emb[candidate_mask]
        return self.score(candidates).squeeze(-1)


def rank_words(model, tokens, vocab):
    ids = torch.tensor([vocab[t] for t in tokens])
    mask = modifiable_positions(tokens)
    scores = model(ids, mask)
    words = [t for t, m in zip(tokens, mask.tolist()) if m]
    return words, scores


if __name__ == "__main__":
    torch.manual_seed(0)
    sentence = "the plot of the movie was dull and the acting is wooden".split()
    vocab = {w: i for i, w in enumerate(sorted(set(sentence)))}
    model = WordImportance(vocab_size=len(vocab), dim=8)
    with torch.no_grad():
        words, scores = rank_words(model, sentence, vocab)
    print("candidate words:", words)
    print("scores:", [round(s, 4) for s in scores.tolist()])
    print("len(words) =", len(words), "len(scores) =", len(scores))
