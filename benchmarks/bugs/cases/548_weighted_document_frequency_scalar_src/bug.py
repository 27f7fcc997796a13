import torch
from jaxtyping import Float, Int
from torch import Tensor


def weighted_document_frequency(
    docs: list[Int[Tensor, " doc_len"]],
    doc_weights: Float[Tensor, " num_docs"],
    vocab_size: int,
) -> Float[Tensor, " vocab"]:
    """Sum of document weights over the documents that contain each term."""
    df: Float[Tensor, " vocab"] = torch.zeros(vocab_size)
    for tokens, weight in zip(docs, doc_weights):
        terms: Int[Tensor, " n_terms"] = torch.unique(tokens)
        df.scatter_add_(0, terms, weight)
    return df


def idf_weights(df: Float[Tensor, " vocab"], total_weight: Float[Tensor, ""]) -> Float[Tensor, " vocab"]:
    return torch.log((1.0 + total_weight) / (1.0 + df)) + 1.0


def tfidf(tokens: Int[Tensor, " doc_len"], idf: Float[Tensor, " vocab"]) -> Float[Tensor, " vocab"]:
    tf = torch.zeros_like(idf).index_add_(0, tokens, torch.ones(tokens.numel()))
    return tf / tokens.numel() * idf


if __name__ == "__main__":
    docs = [torch.tensor([3, 1, 4, 1, 5]), torch.tensor([9, 2, 6, 5]), torch.tensor([3, 5, 8, 9, 7, 9])]
    doc_weights = torch.tensor([1.0, 0.5, 2.0])
    df = weighted_document_frequency(docs, doc_weights, vocab_size=10)
    idf = idf_weights(df, doc_weights.sum())
    print("tf-idf of doc 0:", tfidf(docs[0], idf))
