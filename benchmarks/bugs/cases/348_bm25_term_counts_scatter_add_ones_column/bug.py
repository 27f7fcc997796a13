import torch


class BM25Scorer:
    """Sparse lexical scorer over a fixed vocabulary.

    Args:
        vocab_size (`int`): Number of term ids.
        k1 (`float`): Term-frequency saturation.
        b (`float`): Length normalisation strength.
    """

    def __init__(self, vocab_size, k1=1.2, b=0.75):
        self.vocab_size = vocab_size
        self.k1 = k1
        self.b = b

    def term_counts(self, doc_ids, doc_mask):
        """
        Args:
            doc_ids (`torch.LongTensor` of shape `(num_docs, doc_len)`): Padded term ids.
            doc_mask (`torch.FloatTensor` of shape `(num_docs, doc_len)`): 1 for real terms, 0 for padding.

        Returns:
            `torch.FloatTensor` of shape `(num_docs, vocab_size)`: term frequencies per document.
        """
        counts = doc_mask.new_zeros(doc_ids.size(0), self.vocab_size)
        ones = doc_mask.new_ones(doc_ids.size(0), 1)
        return counts.scatter_add_(1, doc_ids, ones)

    def score(self, query_ids, doc_ids, doc_mask):
        """
        Args:
            query_ids (`torch.LongTensor` of shape `(num_queries, query_len)`)
            doc_ids (`torch.LongTensor` of shape `(num_docs, doc_len)`)
            doc_mask (`torch.FloatTensor` of shape `(num_docs, doc_len)`)

        Returns:
            `torch.FloatTensor` of shape `(num_queries, num_docs)`
        """
        tf = self.term_counts(doc_ids, doc_mask)
        doc_len = doc_mask.sum(dim=1, keepdim=True)
        df = (tf > 0).float().sum(dim=0)
        n = doc_ids.size(0)
        idf = torch.log(1 + (n - df + 0.5) / (df + 0.5))
        sat = tf * (self.k1 + 1) / (tf + self.k1 * (1 - self.b + self.b * doc_len / doc_len.mean()))
        weights = sat * idf
        return weights.t()[query_ids].sum(dim=1)


if __name__ == "__main__":
    torch.manual_seed(0)
    docs = torch.randint(1, 12, (4, 7))
    mask = torch.ones(4, 7)
    mask[1, 5:] = 0
    mask[3, 4:] = 0
    docs = docs * mask.long()
    queries = torch.randint(1, 12, (2, 3))
    print("BM25 scores:", BM25Scorer(vocab_size=12).score(queries, docs, mask))
