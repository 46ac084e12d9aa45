"""The Solr write path: documents, the durable outbox, the index stage and the writer."""
