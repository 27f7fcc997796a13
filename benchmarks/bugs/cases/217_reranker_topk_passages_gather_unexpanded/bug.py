import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


class BiEncoder(nn.Module):
    def __init__(self, vocab_size: int, dim: int):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab_size, dim, mode="mean")
        self.proj = nn.Linear(dim, dim)

    def forward(self, ids: Int[Tensor, "n tokens"]) -> Float[Tensor, "n dim"]:
        return F.normalize(self.proj(self.embed(ids)), dim=-1)


def select_passages(
    passage_emb: Float[Tensor, "batch n_passages dim"], topk_idx: Int[Tensor, "batch k"]
) -> Float[Tensor, "batch k dim"]:
    return passage_emb.gather(1, topk_idx.unsqueeze(-1))


class TwoStageRetriever(nn.Module):
    """Dot-product recall over each query's candidate pool, then temperature-scaled scores of the top k."""

    def __init__(self, encoder: BiEncoder, k: int, temperature: float = 0.05):
        super().__init__()
        self.encoder = encoder
        self.k = k
        self.temperature = temperature

    def forward(
        self, query_ids: Int[Tensor, "batch q_tokens"], passage_ids: Int[Tensor, "batch n_passages p_tokens"]
    ) -> tuple[Float[Tensor, "batch k"], Int[Tensor, "batch k"]]:
        batch, n_passages, p_tokens = passage_ids.shape
        query: Float[Tensor, "batch dim"] = self.encoder(query_ids)
        passages: Float[Tensor, "batch n_passages dim"] = self.encoder(passage_ids.view(-1, p_tokens)).view(
            batch, n_passages, -1
        )
        recall_scores = torch.einsum("bd,bnd->bn", query, passages)
        topk_idx = recall_scores.topk(self.k, dim=-1).indices
        top_passages = select_passages(passages, topk_idx)
        scores = (query.unsqueeze(1) * top_passages).sum(-1) / self.temperature
        return scores, topk_idx


if __name__ == "__main__":
    torch.manual_seed(0)
    retriever = TwoStageRetriever(BiEncoder(vocab_size=40, dim=8), k=3)
    query_ids = torch.randint(0, 40, (2, 4))
    passage_ids = torch.randint(0, 40, (2, 6, 5))
    with torch.no_grad():
        scores, topk_idx = retriever(query_ids, passage_ids)
        recall = torch.einsum("bd,bnd->bn", retriever.encoder(query_ids),
                              retriever.encoder(passage_ids.view(-1, 5)).view(2, 6, 8))
    expected = torch.gather(recall, 1, topk_idx) / retriever.temperature
    print("top-k scores:", [[round(v, 3) for v in row] for row in scores.tolist()])
    print("their recall scores / temperature:", [[round(v, 3) for v in row] for row in expected.tolist()])
