import torch
import torch.nn as nn


class SpladeEncoder(nn.Module):
    """SPLADE-style sparse bi-encoder with an optional lexical (no-expansion) query side.

    Args:
        vocab_size (int): Size of the vocabulary, which is also the embedding dimension.
        hidden_size (int): Width of the backbone.
        query_expansion (bool): If False, query embeddings are restricted to the query's own tokens.
    """

    def __init__(self, vocab_size: int = 30, hidden_size: int = 16, query_expansion: bool = False):
        super().__init__()
        self.vocab_size = vocab_size
        self.query_expansion = query_expansion
        self.embed = nn.Embedding(vocab_size, hidden_size, padding_idx=0)
        self.backbone = nn.Sequential(nn.Linear(hidden_size, hidden_size), nn.GELU())
        self.projection = nn.Linear(hidden_size, vocab_size)

    def pooling(self, embeddings: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Max pooling over the sequence.

        Args:
            embeddings (torch.Tensor): Token activations of shape (batch_size, seq_len, vocab_size).
            attention_mask (torch.Tensor): Mask of shape (batch_size, seq_len).
        Returns:
            torch.Tensor: Pooled embeddings of shape (batch_size, 1, vocab_size).
        """
        embeddings = embeddings.masked_fill(~attention_mask.bool()[..., None], 0.0)
        return embeddings.amax(dim=1, keepdim=True)

    def encode(self, input_ids: torch.Tensor, attention_mask: torch.Tensor, input_type: str) -> torch.Tensor:
        """Encodes a tokenized batch.

        Args:
            input_ids (torch.Tensor): Token ids of shape (batch_size, seq_len).
            attention_mask (torch.Tensor): Mask of shape (batch_size, seq_len).
            input_type (str): "query" or "doc".
        Returns:
            torch.Tensor: Sparse embeddings of shape (batch_size, 1, vocab_size).
        """
        token_mask = None
        if input_type == "query" and not self.query_expansion:
            token_mask = torch.zeros(input_ids.shape[0], self.vocab_size, dtype=torch.float32)
            weights = attention_mask.to(token_mask)
            token_mask = token_mask.scatter(1, input_ids, weights)
        hidden = self.backbone(self.embed(input_ids))
        embeddings = torch.log1p(torch.relu(self.projection(hidden)))
        embeddings = self.pooling(embeddings, attention_mask)
        if token_mask is not None:
            embeddings = embeddings * token_mask
        return embeddings

    def score(self, query_embeddings: torch.Tensor, doc_embeddings: torch.Tensor) -> torch.Tensor:
        """Dot-product relevance of each query with its paired document."""
        return (query_embeddings * doc_embeddings).sum(-1).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SpladeEncoder().eval()
    q_ids = torch.tensor([[3, 7, 9, 0], [4, 4, 12, 18], [21, 5, 0, 0]])
    q_mask = (q_ids != 0).long()
    d_ids = torch.tensor([[3, 9, 11, 7, 2], [12, 18, 4, 6, 0], [5, 21, 8, 0, 0]])
    d_mask = (d_ids != 0).long()
    with torch.no_grad():
        q = model.encode(q_ids, q_mask, "query")
        d = model.encode(d_ids, d_mask, "doc")
        print("query embeddings shape:", tuple(q.shape), "(expected (3, 1, 30))")
        print("scores:", model.score(q, d).tolist())
