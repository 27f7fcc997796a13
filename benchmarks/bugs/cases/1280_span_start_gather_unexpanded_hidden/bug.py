import torch
import torch.nn as nn


class MentionCandidateScorer(nn.Module):
    """Entity linking: score each candidate mention (by its start token) against a query vector."""

    def __init__(self, vocab_size: int, hidden: int):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.encoder = nn.GRU(hidden, hidden, batch_first=True)
        self.query_proj = nn.Linear(hidden, hidden)

    def forward(self, tokens: torch.Tensor, mention_starts: torch.Tensor, query: torch.Tensor) -> torch.Tensor:
        # tokens:         [B, L]
        # mention_starts: [B, M] position of each candidate mention's first token
        # query:          [B, H]
        states, _ = self.encoder(self.embed(tokens))  # [B, L, H]
        index = mention_starts.unsqueeze(-1)  # [B, M, 1]
        mention_h = states.gather(1, index)  # [B, M, H]
        q = self.query_proj(query).unsqueeze(1)  # [B, 1, H]
        return (mention_h * q).sum(-1)  # [B, M]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MentionCandidateScorer(vocab_size=50, hidden=16)
    tokens = torch.randint(0, 50, (2, 10))
    mention_starts = torch.tensor([[0, 3, 7], [2, 5, 9]])
    query = torch.randn(2, 16)
    with torch.no_grad():
        scores = model(tokens, mention_starts, query)
        states, _ = model.encoder(model.embed(tokens))
        q = model.query_proj(query)
        ref = torch.stack([(states[b, mention_starts[b]] * q[b]).sum(-1) for b in range(2)])
    print("scores   :", scores)
    print("reference:", ref)
