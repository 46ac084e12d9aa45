# The indexer CLI (`indexer ...`); Solr itself runs from the official image (docker-compose.yml).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY indexer ./indexer
# the configset for `indexer solr init` / `update-config` (setting solr.configset_dir)
COPY solr-config ./solr-config
ENV INDEXER_SOLR_CONFIGSET_DIR=/app/solr-config
RUN pip install .
ENTRYPOINT ["indexer"]
CMD ["--help"]
