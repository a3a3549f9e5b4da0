# Multi-stage build: compile and package with Maven, run the shaded jar on a JRE as a numeric non-root user.
# Build: docker build -t kith .
# Run:   docker run -p 8080:8080 -v kith-data:/data kith
#        (embedded stores under /data, development only; set KITH_REDIS_URL and KITH_MONGO_URL for production)
# Three clustered nodes with Redis and a MongoDB replica set: deploy/compose.yaml; Kubernetes: deploy/kubernetes/
# (deploy/README.md). ImageFilesTest checks this file against conf/kith.yaml.

# Every pom.xml of the reactor and nothing else, so that the dependency layer below is rebuilt only when a POM
# changes (a new module needs no line here).
FROM maven:3.9.9-eclipse-temurin-17 AS poms
WORKDIR /src
COPY . .
RUN mkdir /poms && find . -name pom.xml -not -path '*/target/*' -exec cp --parents {} /poms \;

FROM maven:3.9.9-eclipse-temurin-17 AS build
WORKDIR /src
# Dependency-cache layer: packaging the POMs alone downloads every dependency and plugin the real build uses.
COPY --from=poms /poms/ ./
RUN mvn -B -q -Dmaven.repo.local=/m2 -DskipTests -pl modules/app -am package \
    && find . -name target -type d -prune -exec rm -rf {} +
COPY conf conf
COPY modules modules
RUN mvn -B -q -Dmaven.repo.local=/m2 -DskipTests -pl modules/app -am package

FROM eclipse-temurin:17-jre
# Numeric user and group, so that Kubernetes' runAsNonRoot can check them without a passwd lookup.
RUN groupadd --system --gid 10001 kith \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data --no-create-home kith \
    && mkdir -p /data /opt/kith/conf && chown 10001:10001 /data
COPY --from=build /src/modules/app/target/kith.jar /opt/kith/kith.jar
COPY conf /opt/kith/conf
USER 10001:10001
WORKDIR /data
# The event bus between nodes gets a fixed port (5702) so that it can be exposed; the drain on SIGTERM is bounded
# to 7 s, so that bridges closing, the HTTP drain, undeploying and leaving the cluster end within docker stop's
# default 10 s (raise both together: docker stop -t / stop_grace_period, and KITH_SHUTDOWN_GRACE_SECONDS).
ENV KITH_DATA_DIR=/data \
    KITH_CLUSTER_BUS_PORT=5702 \
    KITH_SHUTDOWN_GRACE_SECONDS=7 \
    JAVA_OPTS="-XX:MaxRAMPercentage=75"
# HTTP API and SockJS bridge (http.port); Hazelcast (cluster.port) and the event bus (cluster.bus-port) in cluster
# mode, for the other nodes only. The TCP bridge (bridge.tcp-port) is off unless enabled, for trusted networks only.
EXPOSE 8080 5701 5702
VOLUME ["/data"]
STOPSIGNAL SIGTERM
# Liveness of the HTTP server on the configured port (KITH_HTTP_PORT; a port set in a configuration file instead is
# not seen here). Nodes that run no gateway serve no HTTP: give them another check or none (deploy/compose.yaml).
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${KITH_HTTP_PORT:-8080} && printf 'GET /health HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q UP <&3"]
# exec: java is PID 1 and receives SIGTERM itself (its shutdown hook drains the node).
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -jar /opt/kith/kith.jar \"$@\"", "kith"]
