# The indexer CLI (`indexer ...`); Solr itself runs from the official image (docker-compose.yml).
# Stage 1 builds our Tika service (tika-service/: Apache Tika 3.3.1 from Maven Central) with
# its dependency jars beside it; the image runs it on a Java runtime for DOC/XLS/PPT/RTF.
FROM maven:3.9-eclipse-temurin-17 AS tika
WORKDIR /build
COPY tika-service/pom.xml ./
COPY tika-service/src ./src
RUN mvn -B -q package dependency:copy-dependencies -DoutputDirectory=target/lib \
 && cd target && ls lib/*.jar | sed 's|^|/app/tika-service/target/|' | paste -sd: > classpath.txt

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      openjdk-17-jre-headless \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# what `pip install .` builds the package from (setup.py bundles solr-config/, solr-launcher/
# and tika-service/ into it; tests/test_release.py installs from the same files)
COPY pyproject.toml README.md setup.py MANIFEST.in ./
COPY indexer ./indexer
COPY solr-config ./solr-config
COPY solr-launcher ./solr-launcher
COPY tika-service ./tika-service
# the configset for `indexer solr init` / `update-config` (setting solr.configset_dir)
ENV INDEXER_SOLR_CONFIGSET_DIR=/app/solr-config
# the built Tika service (setting extract.tika_service_dir; the crawl starts it on demand)
COPY --from=tika /build/target/tika-service-1.0.jar /build/target/classpath.txt \
     /app/tika-service/target/
COPY --from=tika /build/target/lib /app/tika-service/target/lib
ENV INDEXER_EXTRACT_TIKA_SERVICE_DIR=/app/tika-service
RUN pip install .
ENTRYPOINT ["indexer"]
CMD ["--help"]
